import { AppError, type AppErrorOptions } from '../common/errors/app-error.js';
import { ErrorKind } from '../common/errors/error-kind.js';

/** Codes of the self-service context (the identity family's `error.id`; names follow later Kratos ids). */
export enum SelfServiceErrorCode {
  /** Malformed request: missing or malformed `flow`, a body that cannot be decoded. */
  InvalidRequest = 'invalid_request',
  /** No flow of that kind with that id, or no error container with that id (admin-style lookups). */
  NotFound = 'not_found',
  /** The flow expired; `details` says where to start a new one. */
  FlowExpired = 'self_service_flow_expired',
  /** A browser flow submitted without a CSRF token matching the browser's CSRF cookie. */
  CsrfViolation = 'security_csrf_violation',
  /** An API flow used with a `Cookie` or `Origin` header, i.e. from a browser. */
  BrowserRequestOnApiFlow = 'browser_request_on_api_flow',
  /** A login or registration flow started or submitted while a valid session exists (without `refresh`). */
  SessionAlreadyAvailable = 'session_already_available',
  /** No valid session: whoami, settings. */
  SessionInactive = 'session_inactive',
  /** The session authenticated too long ago for this change (settings `password`, protected traits). */
  SessionRefreshRequired = 'session_refresh_required',
  /** The flow belongs to another identity than the session's. */
  IdentityMismatch = 'security_identity_mismatch',
  /** `return_to` is not on the allow-list. */
  ReturnToForbidden = 'self_service_flow_return_to_forbidden',
  /** Too many failed logins for an identifier or from an address; `Retry-After` says when to retry. */
  TooManyAttempts = 'too_many_requests',
  /** Logout with a session token that is unknown or already revoked. */
  InvalidSessionToken = 'invalid_session_token',
}

/** The only error the self-service context throws. */
export class SelfServiceError extends AppError {
  constructor(
    readonly reason: SelfServiceErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(kindOf(reason), reason, message, options);
    this.name = 'SelfServiceError';
  }

  static invalidRequest(message: string, details?: Record<string, unknown>): SelfServiceError {
    return new SelfServiceError(SelfServiceErrorCode.InvalidRequest, message, details === undefined ? {} : { details });
  }

  static missingFlowId(): SelfServiceError {
    return SelfServiceError.invalidRequest('The flow query parameter is missing or malformed.', { parameter: 'flow' });
  }

  static flowNotFound(): SelfServiceError {
    return new SelfServiceError(SelfServiceErrorCode.NotFound, 'The requested flow does not exist.');
  }

  static flowExpired(kind: string, details: Record<string, unknown>): SelfServiceError {
    return new SelfServiceError(SelfServiceErrorCode.FlowExpired, `The ${kind} flow has expired. Start a new ${kind} flow (see details).`, {
      details,
    });
  }

  static errorNotFound(): SelfServiceError {
    return new SelfServiceError(SelfServiceErrorCode.NotFound, 'The requested error does not exist.');
  }

  static csrf(): SelfServiceError {
    return new SelfServiceError(SelfServiceErrorCode.CsrfViolation, 'A request failed due to a missing or invalid csrf_token value.');
  }

  static browserRequestOnApiFlow(header: 'Cookie' | 'Origin'): SelfServiceError {
    return new SelfServiceError(
      SelfServiceErrorCode.BrowserRequestOnApiFlow,
      `API flows must not be used from browsers: the request carries a ${header} header. Use the browser flow instead.`,
      { details: { header: header.toLowerCase() } },
    );
  }

  static alreadyLoggedIn(what: 'login' | 'registration' | 'recovery'): SelfServiceError {
    const hint = what === 'login' ? ' Did you forget to set `?refresh=true`?' : '';
    return new SelfServiceError(
      SelfServiceErrorCode.SessionAlreadyAvailable,
      `A valid session was detected and thus ${what} is not possible.${hint}`,
    );
  }

  static noSession(): SelfServiceError {
    return new SelfServiceError(SelfServiceErrorCode.SessionInactive, 'No valid session credentials found in the request.', {
      headers: { 'www-authenticate': 'Bearer' },
    });
  }

  static refreshRequired(loginUrl: string): SelfServiceError {
    return new SelfServiceError(
      SelfServiceErrorCode.SessionRefreshRequired,
      'The login session is too old and thus not allowed to update these fields. Please re-authenticate.',
      { details: { redirect_browser_to: loginUrl } },
    );
  }

  static identityMismatch(): SelfServiceError {
    return new SelfServiceError(
      SelfServiceErrorCode.IdentityMismatch,
      'You must restart the flow because the resumable session was initiated by another person.',
    );
  }

  static returnToForbidden(returnTo: string): SelfServiceError {
    return new SelfServiceError(SelfServiceErrorCode.ReturnToForbidden, `Requested return_to URL "${returnTo}" is not allowed.`, {
      details: { parameter: 'return_to' },
    });
  }

  static tooManyAttempts(retryAfterSeconds: number): SelfServiceError {
    return new SelfServiceError(SelfServiceErrorCode.TooManyAttempts, 'Too many failed login attempts. Try again later.', {
      headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
      details: { retry_after_seconds: Math.max(1, Math.ceil(retryAfterSeconds)) },
    });
  }

  static invalidSessionToken(): SelfServiceError {
    return new SelfServiceError(SelfServiceErrorCode.InvalidSessionToken, 'The session token is unknown or was already revoked.');
  }
}

function kindOf(reason: SelfServiceErrorCode): ErrorKind {
  switch (reason) {
    case SelfServiceErrorCode.InvalidRequest:
    case SelfServiceErrorCode.BrowserRequestOnApiFlow:
    case SelfServiceErrorCode.SessionAlreadyAvailable:
    case SelfServiceErrorCode.ReturnToForbidden:
      return ErrorKind.BadRequest;
    case SelfServiceErrorCode.NotFound:
      return ErrorKind.NotFound;
    case SelfServiceErrorCode.FlowExpired:
      return ErrorKind.Gone;
    case SelfServiceErrorCode.CsrfViolation:
    case SelfServiceErrorCode.SessionRefreshRequired:
    case SelfServiceErrorCode.IdentityMismatch:
    case SelfServiceErrorCode.InvalidSessionToken:
      return ErrorKind.Forbidden;
    case SelfServiceErrorCode.SessionInactive:
      return ErrorKind.Unauthorized;
    case SelfServiceErrorCode.TooManyAttempts:
      return ErrorKind.TooManyRequests;
  }
}
