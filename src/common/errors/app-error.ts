import { ErrorKind } from './error-kind.js';

export interface AppErrorOptions {
  /** Structured detail for clients, e.g. the fields that failed validation. Never internals. */
  readonly details?: Readonly<Record<string, unknown>>;
  /** What caused it; shown as `debug` only when EXPOSE_INTERNAL_ERRORS=true. */
  readonly cause?: unknown;
  /** Extra response headers, e.g. `WWW-Authenticate` or `Retry-After`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The one error type services throw. `code` is the stable machine-readable identifier that clients and
 * tests match on (for the OAuth family it is the RFC 6749 `error` value); `message` is for humans.
 * Each bounded context builds these through its own code enum (see e.g. clients.errors.ts).
 */
export class AppError extends Error {
  readonly details: Readonly<Record<string, unknown>> | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.details = options.details;
    this.headers = options.headers;
  }
}

/** How long a client should wait before retrying when the database is down or saturated. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
/** `details.reason` of a database outage, so operators and clients can tell it from other 503s. */
export const DATABASE_UNAVAILABLE_REASON = 'database_unavailable';

/** Errors raised by the plumbing itself rather than by a bounded context. */
export const CommonErrors = {
  notFound: (message = 'The requested resource could not be found.') => new AppError(ErrorKind.NotFound, 'not_found', message),
  invalidRequest: (message: string, details?: Record<string, unknown>) =>
    new AppError(ErrorKind.BadRequest, 'invalid_request', message, details === undefined ? {} : { details }),
  unauthorized: (message = 'The request could not be authorized.') =>
    new AppError(ErrorKind.Unauthorized, 'unauthorized', message, { headers: { 'www-authenticate': 'Bearer' } }),
  internal: (cause: unknown) => new AppError(ErrorKind.Internal, 'internal_error', 'The server encountered an internal error.', { cause }),
  unavailable: (message: string, cause?: unknown) =>
    new AppError(ErrorKind.Unavailable, 'service_unavailable', message, { cause, headers: { 'retry-after': '1' } }),
  /** A database restart takes seconds: clients and load balancers should retry, not give up. */
  databaseUnavailable: (cause: unknown) =>
    new AppError(ErrorKind.Unavailable, 'service_unavailable', 'The service is temporarily unavailable; retry later.', {
      cause,
      headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
      details: { reason: DATABASE_UNAVAILABLE_REASON },
    }),
};
