const FOREIGN_KEY_VIOLATION = '23503';

/**
 * A row referenced something (client, login session) that was deleted meanwhile. pg's error carries
 * the SQLSTATE as `code`; TypeORM's QueryFailedError wraps it in `driverError`.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  return sqlStateOf(error) === FOREIGN_KEY_VIOLATION;
}

function sqlStateOf(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, driverError } = error as { code?: unknown; driverError?: { code?: unknown } };
  return code ?? driverError?.code;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids of the consent tables are uuid columns: anything else names no row (and must not reach PostgreSQL). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
