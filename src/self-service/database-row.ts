import type { QueryDeepPartialEntity } from 'typeorm';

/**
 * Column values for TypeORM's insert/update. Its partial-entity type recurses into jsonb columns and
 * refuses plain JSON values (arrays of objects, records); the values are the entity's own column types.
 */
export function row<T>(columns: Partial<T>): QueryDeepPartialEntity<T> {
  return columns as QueryDeepPartialEntity<T>;
}
