// The clients context as other contexts see it; the rest of the folder is its own (eslint.config.js).
export type { Client, TokenEndpointAuthMethod } from './client.js';
export { REQUEST_OBJECT_SIGNING_ALGS } from './client-metadata.js';
// A client's wire shape, which consent's admin answers embed; rows and their mapping stay private.
export { toClientResponse } from './clients.mapper.js';
export { ClientsError, ClientsErrorCode } from './clients.errors.js';
export { ClientsModule } from './clients.module.js';
export { ClientsService } from './clients.service.js';
export type { ClientResponseDto } from './dto/client-response.dto.js';
