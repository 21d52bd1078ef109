import { HttpException } from '@nestjs/common';
import { AppError, CommonErrors } from './app-error.js';
import { isDatabaseUnavailable } from '../../database/sql-state.js';
import { ErrorKind, statusOf } from './error-kind.js';

/** A family-neutral view of an error, ready to render in any wire shape. */
export interface Problem {
  readonly kind: ErrorKind;
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>> | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** Internal detail; rendered only when EXPOSE_INTERNAL_ERRORS=true. */
  readonly debug: string | undefined;
}

interface FastifyLikeError {
  code?: unknown;
  statusCode?: unknown;
  message?: unknown;
}

/** Fastify's own errors (raised before a handler runs) by code. */
const FASTIFY_ERRORS: Readonly<Record<string, () => AppError>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new AppError(ErrorKind.PayloadTooLarge, 'payload_too_large', 'The request body is larger than the server accepts.'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new AppError(
      ErrorKind.UnsupportedMediaType,
      'unsupported_media_type',
      'The request body has a content type this endpoint does not accept.',
    ),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => CommonErrors.invalidRequest('The Content-Length header does not match the request body.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => CommonErrors.invalidRequest('The request body is empty but was declared as JSON.'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => CommonErrors.invalidRequest('The request body is not valid JSON.'),
  FST_ERR_BAD_URL: () => CommonErrors.invalidRequest('The request URL is malformed.'),
  FST_ERR_MAX_PARAM_LENGTH: () => new AppError(ErrorKind.UriTooLong, 'uri_too_long', 'A path parameter is longer than the server accepts.'),
};

/**
 * Turns anything thrown into a Problem. A database that is down, starting up, saturated or timing out
 * becomes a 503 with Retry-After; other unknown errors an opaque 500.
 */
export function toProblem(error: unknown): Problem {
  const appError = asAppError(error);
  const cause = appError.kind === ErrorKind.Internal || appError.kind === ErrorKind.Unavailable ? (appError.cause ?? appError) : undefined;
  return {
    kind: appError.kind,
    status: statusOf(appError.kind),
    code: appError.code,
    message: appError.message,
    details: appError.details,
    headers: appError.headers,
    debug: cause === undefined ? undefined : describe(cause),
  };
}

function asAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fastify = error as FastifyLikeError;
  if (typeof fastify?.code === 'string') {
    const known = FASTIFY_ERRORS[fastify.code];
    if (known !== undefined) return known();
  }
  if (error instanceof SyntaxError && fastify.statusCode === 400) {
    return CommonErrors.invalidRequest('The request body is not valid JSON.');
  }
  if (error instanceof HttpException) return fromHttpException(error);
  if (isDatabaseUnavailable(error)) return CommonErrors.databaseUnavailable(error);
  if (typeof fastify?.statusCode === 'number' && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    const kind = kindForStatus(fastify.statusCode);
    return new AppError(kind, kind, typeof fastify.message === 'string' ? fastify.message : 'The request is invalid.');
  }
  return CommonErrors.internal(error);
}

/** Nest raises HttpExceptions for unknown routes and a few parser failures; services never do. */
function fromHttpException(error: HttpException): AppError {
  const status = error.getStatus();
  if (status === 404) return CommonErrors.notFound();
  if (status === 413) return FASTIFY_ERRORS['FST_ERR_CTP_BODY_TOO_LARGE']!();
  if (status === 415) return FASTIFY_ERRORS['FST_ERR_CTP_INVALID_MEDIA_TYPE']!();
  if (status >= 500) return CommonErrors.internal(error);
  const kind = kindForStatus(status);
  return new AppError(kind, kind === ErrorKind.BadRequest ? 'invalid_request' : kind, error.message);
}

function kindForStatus(status: number): ErrorKind {
  switch (status) {
    case 401:
      return ErrorKind.Unauthorized;
    case 403:
      return ErrorKind.Forbidden;
    case 404:
      return ErrorKind.NotFound;
    case 405:
      return ErrorKind.MethodNotAllowed;
    case 409:
      return ErrorKind.Conflict;
    case 410:
      return ErrorKind.Gone;
    case 413:
      return ErrorKind.PayloadTooLarge;
    case 414:
      return ErrorKind.UriTooLong;
    case 415:
      return ErrorKind.UnsupportedMediaType;
    case 429:
      return ErrorKind.TooManyRequests;
    default:
      return ErrorKind.BadRequest;
  }
}

function describe(cause: unknown): string {
  if (cause instanceof Error) return `${cause.name}: ${cause.message}`;
  return String(cause);
}
