import { CreateClients1763800000000 } from '../../migrations/1763800000000-create-clients.js';
import { ClientEntity } from '../clients/entities/client.entity.js';

/**
 * Every entity and every migration, listed by class: TypeORM globs do not work well under ESM, and a
 * list makes a forgotten registration a compile-time matter. Contexts append theirs here.
 */
export const ENTITIES: Function[] = [ClientEntity];

export const MIGRATIONS: Function[] = [
  CreateClients1763800000000,
];
