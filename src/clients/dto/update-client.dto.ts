import { CreateClientDto } from './create-client.dto.js';

/**
 * The body of PUT /clients/{id}: a full replacement, same fields as on create. `client_id` may be
 * omitted or repeat the path id. A `client_secret` rotates the secret; without one the stored secret
 * is kept.
 */
export class UpdateClientDto extends CreateClientDto {}
