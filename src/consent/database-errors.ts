import { QueryFailedError } from 'typeorm';

const FOREIGN_KEY_VIOLATION = '23503';

/** A row referenced something (client, login session) that was deleted meanwhile. */
export function isForeignKeyViolation(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as { code?: unknown } | undefined)?.code === FOREIGN_KEY_VIOLATION;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids of the consent tables are uuid columns: anything else names no row (and must not reach PostgreSQL). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
