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

/**
 * SQLSTATEs that say the database cannot serve right now, not that the statement was wrong:
 * class 08 (connection exceptions), too many connections, the server shutting down, crashing or
 * starting up, and a statement or lock wait cut by its timeout.
 */
const UNAVAILABLE_STATES: ReadonlySet<string> = new Set(['53300', '57P01', '57P02', '57P03', '57014', SqlState.LockNotAvailable]);

/** Socket errors of a connection to a database that is down, restarting or unreachable. */
const UNAVAILABLE_SOCKET_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * Connecting through a Unix socket to a server that is down finds no socket file: ENOENT, but only
 * from `connect` (elsewhere ENOENT is a missing file, a bug to report as such).
 */
function isMissingSocket(code: unknown, syscall: unknown): boolean {
  return code === 'ENOENT' && syscall === 'connect';
}

/**
 * pg-pool and pg raise these without a code: a pool-acquire timeout, and a connection cut while a
 * query was running. Their message is the only thing that tells them apart from a programming error.
 */
const UNAVAILABLE_DRIVER_MESSAGES: readonly string[] = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Query read timeout',
];

/**
 * TypeORM's error for a transaction whose connection was lost and released under it: the statement
 * that follows finds the runner gone and this replaces the connection error.
 */
const RELEASED_RUNNER_ERROR = 'QueryRunnerAlreadyReleasedError';

/**
 * True when the error says the database is unreachable, starting up, overloaded or timed out: a
 * condition a client should retry, not a bug. Looks through TypeORM's `driverError` and `cause`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current !== undefined && current !== null && depth < 4; depth += 1) {
    const { code, syscall, message, name, driverError, cause } = current as {
      code?: unknown;
      syscall?: unknown;
      message?: unknown;
      name?: unknown;
      driverError?: unknown;
      cause?: unknown;
    };
    if (name === RELEASED_RUNNER_ERROR) return true;
    const state = sqlStateOf(current);
    if (state !== undefined && (state.startsWith('08') || UNAVAILABLE_STATES.has(state))) return true;
    if (typeof code === 'string' && UNAVAILABLE_SOCKET_CODES.has(code)) return true;
    if (isMissingSocket(code, syscall)) return true;
    if (typeof message === 'string' && UNAVAILABLE_DRIVER_MESSAGES.some((known) => message.startsWith(known))) return true;
    current = driverError ?? cause;
  }
  return false;
}
