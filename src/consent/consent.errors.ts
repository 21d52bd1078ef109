import { AppError, type AppErrorOptions } from '../common/errors/app-error.js';
import { ErrorKind } from '../common/errors/error-kind.js';

export enum ConsentErrorCode {
  /** prompt=none without a usable login session, max_age exceeded under prompt=none, or id_token_hint for someone else. */
  LoginRequired = 'login_required',
  /** prompt=none without a remembered consent that covers the request. */
  ConsentRequired = 'consent_required',
  /** A login/consent/logout verifier that is unknown, used already, or was never accepted (or rejected). */
  AccessDenied = 'access_denied',
  /** The login/consent request is older than TTL_LOGIN_CONSENT_REQUEST. */
  RequestUnauthorized = 'request_unauthorized',
  /** The CSRF cookie of the flow is missing or does not match: the verifier came back in another browser. */
  RequestForbidden = 'request_forbidden',
  /** A malformed request (admin query or body, both verifiers at once, a verifier for another request...). */
  InvalidRequest = 'invalid_request',
  /** The login or consent app rejected the request; the wire error is the app's (see `rejection`). */
  Rejected = 'rejected',
  /** No such login, consent or logout request (also: expired, or a logout request that was rejected). */
  NotFound = 'not_found',
  /** The request was used already (its verifier was redeemed), or a login request was handled already. */
  Conflict = 'conflict',
}

/** What the login or consent app said in `PUT .../reject` (Hydra's `rejectRequest`). */
export interface Rejection {
  readonly error: string;
  readonly errorDescription: string;
  readonly errorHint: string;
  readonly errorDebug: string;
  readonly statusCode: number;
}

/**
 * The only error the consent context throws.
 *
 * For the authorize endpoint (`ConsentFlowService.advance`): every code advance() throws is an
 * authorization error to deliver **by redirect to the client's redirect_uri** (RFC 6749 §4.1.2.1, query
 * for `code`, fragment otherwise) with `error` = `this.code`, `error_description` = `this.message`,
 * `state`, and for `Rejected` also `error_hint` = `rejection.errorHint` when not empty:
 * `LoginRequired`, `ConsentRequired`, `AccessDenied`, `RequestUnauthorized` (401), `RequestForbidden`
 * (403), `InvalidRequest`, `Rejected` (the app's own `error` and `status_code`). advance() never throws
 * `NotFound` or `Conflict` (admin API only); anything that is not a ConsentError is a server error.
 */
export class ConsentError extends AppError {
  /** Set for `Rejected` only. */
  readonly rejection: Rejection | undefined;

  constructor(
    readonly reason: ConsentErrorCode,
    message: string,
    options: AppErrorOptions & { readonly rejection?: Rejection } = {},
  ) {
    const [kind, wire] = wireOf(reason, options.rejection);
    super(kind, wire, message, options);
    this.name = 'ConsentError';
    this.rejection = options.rejection;
  }

  static loginRequired(message: string): ConsentError {
    return new ConsentError(ConsentErrorCode.LoginRequired, message);
  }

  static consentRequired(message: string): ConsentError {
    return new ConsentError(ConsentErrorCode.ConsentRequired, message);
  }

  static accessDenied(step: 'login' | 'consent' | 'logout'): ConsentError {
    return new ConsentError(
      ConsentErrorCode.AccessDenied,
      `The ${step} verifier has already been used, has not been granted, or is invalid.`,
    );
  }

  static expired(step: 'login' | 'consent' | 'logout'): ConsentError {
    return new ConsentError(ConsentErrorCode.RequestUnauthorized, `The ${step} request has expired, please try again.`);
  }

  static csrf(step: 'login' | 'consent'): ConsentError {
    return new ConsentError(
      ConsentErrorCode.RequestForbidden,
      `The ${step} request was started in another browser: its CSRF cookie is missing or does not match.`,
    );
  }

  static invalidRequest(message: string, details?: Record<string, unknown>): ConsentError {
    return new ConsentError(ConsentErrorCode.InvalidRequest, message, details === undefined ? {} : { details });
  }

  static rejected(rejection: Rejection): ConsentError {
    return new ConsentError(ConsentErrorCode.Rejected, rejection.errorDescription, { rejection });
  }

  static notFound(kind: 'login' | 'consent' | 'logout'): ConsentError {
    return new ConsentError(ConsentErrorCode.NotFound, `The ${kind} request does not exist or has expired.`);
  }

  static conflict(kind: 'login' | 'consent' | 'logout'): ConsentError {
    return new ConsentError(ConsentErrorCode.Conflict, `The ${kind} request has been used already.`);
  }
}

function wireOf(reason: ConsentErrorCode, rejection: Rejection | undefined): readonly [ErrorKind, string] {
  switch (reason) {
    case ConsentErrorCode.LoginRequired:
      return [ErrorKind.BadRequest, 'login_required'];
    case ConsentErrorCode.ConsentRequired:
      return [ErrorKind.BadRequest, 'consent_required'];
    case ConsentErrorCode.AccessDenied:
      return [ErrorKind.Forbidden, 'access_denied'];
    case ConsentErrorCode.RequestUnauthorized:
      return [ErrorKind.Unauthorized, 'request_unauthorized'];
    case ConsentErrorCode.RequestForbidden:
      return [ErrorKind.Forbidden, 'request_forbidden'];
    case ConsentErrorCode.InvalidRequest:
      return [ErrorKind.BadRequest, 'invalid_request'];
    case ConsentErrorCode.Rejected:
      return [kindOfStatus(rejection?.statusCode ?? 400), rejection?.error ?? 'access_denied'];
    case ConsentErrorCode.NotFound:
      return [ErrorKind.NotFound, 'not_found'];
    case ConsentErrorCode.Conflict:
      return [ErrorKind.Conflict, 'conflict'];
  }
}

/** The app's status_code (400–599, checked at reject) as the nearest kind; it only shows when no redirect is possible. */
function kindOfStatus(status: number): ErrorKind {
  switch (status) {
    case 401:
      return ErrorKind.Unauthorized;
    case 403:
      return ErrorKind.Forbidden;
    case 404:
      return ErrorKind.NotFound;
    case 409:
      return ErrorKind.Conflict;
    case 429:
      return ErrorKind.TooManyRequests;
    case 503:
      return ErrorKind.Unavailable;
    default:
      return status >= 500 ? ErrorKind.Internal : ErrorKind.BadRequest;
  }
}
