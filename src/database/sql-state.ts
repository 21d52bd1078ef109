/** The SQLSTATE codes (PostgreSQL, appendix A) the repositories turn into domain errors. */
export const SqlState = {
  ForeignKeyViolation: '23503',
  UniqueViolation: '23505',
  LockNotAvailable: '55P03',
} as const;

/**
 * The SQLSTATE of a database error, or undefined for any other error: pg's errors carry it as `code`,
 * TypeORM's QueryFailedError also in `driverError` (statements run on the pool throw pg's own).
 */
export function sqlStateOf(error: unknown): string | undefined {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  const state = code ?? driverError?.code;
  return typeof state === 'string' && /^[0-9A-Z]{5}$/.test(state) ? state : undefined;
}

/** The violated constraint's name, when PostgreSQL gave one. */
export function violatedConstraintOf(error: unknown): string | undefined {
  const { constraint, driverError } = (error ?? {}) as { constraint?: unknown; driverError?: { constraint?: unknown } };
  const name = constraint ?? driverError?.constraint;
  return typeof name === 'string' ? name : undefined;
}

/** A row referenced something (a client, an identity, a login session) that was deleted meanwhile. */
export function isForeignKeyViolation(error: unknown): boolean {
  return sqlStateOf(error) === SqlState.ForeignKeyViolation;
}

export function isUniqueViolation(error: unknown): boolean {
  return sqlStateOf(error) === SqlState.UniqueViolation;
}
