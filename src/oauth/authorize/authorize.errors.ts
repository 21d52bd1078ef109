import { AppError } from '../../common/errors/app-error.js';
import { ErrorKind } from '../../common/errors/error-kind.js';

/** Everything the authorization endpoint can answer with instead of a code or tokens. */
export enum AuthorizeErrorCode {
  /** Unknown client_id. Never redirected (RFC 6749 §4.1.2.1). */
  InvalidClient = 'invalid_client',
  InvalidRequest = 'invalid_request',
  UnsupportedResponseType = 'unsupported_response_type',
  InvalidScope = 'invalid_scope',
  /** `state` missing or shorter than 8 characters (fosite's MinParameterEntropy). */
  InvalidState = 'invalid_state',
  /** `nonce` shorter than 8 characters. */
  InsufficientEntropy = 'insufficient_entropy',
  /** A request object that cannot be used: bad signature, algorithm, claims, or a replayed jti. */
  InvalidRequestObject = 'invalid_request_object',
  /** A request_uri the client did not register, or whose document cannot be fetched. */
  InvalidRequestUri = 'invalid_request_uri',
  RegistrationNotSupported = 'registration_not_supported',
  LoginRequired = 'login_required',
  ConsentRequired = 'consent_required',
  AccessDenied = 'access_denied',
  /** The login or consent request expired. Rendered, not redirected (Hydra). */
  RequestUnauthorized = 'request_unauthorized',
  /** CSRF cookie missing or different. Rendered, not redirected (Hydra). */
  RequestForbidden = 'request_forbidden',
  /** The login or consent app rejected the request with an error of its own choosing. */
  Rejected = 'rejected',
}

function kindOf(code: AuthorizeErrorCode): ErrorKind {
  switch (code) {
    case AuthorizeErrorCode.InvalidClient:
    case AuthorizeErrorCode.RequestUnauthorized:
      return ErrorKind.Unauthorized;
    case AuthorizeErrorCode.AccessDenied:
    case AuthorizeErrorCode.RequestForbidden:
      return ErrorKind.Forbidden;
    case AuthorizeErrorCode.InvalidRequest:
    case AuthorizeErrorCode.UnsupportedResponseType:
    case AuthorizeErrorCode.InvalidScope:
    case AuthorizeErrorCode.InvalidState:
    case AuthorizeErrorCode.InsufficientEntropy:
    case AuthorizeErrorCode.InvalidRequestObject:
    case AuthorizeErrorCode.InvalidRequestUri:
    case AuthorizeErrorCode.RegistrationNotSupported:
    case AuthorizeErrorCode.LoginRequired:
    case AuthorizeErrorCode.ConsentRequired:
    case AuthorizeErrorCode.Rejected:
      return ErrorKind.BadRequest;
  }
}

/**
 * An authorization error. `code` is the RFC 6749 / OIDC `error` value sent to the client; for a
 * rejection it is the login or consent app's own value. `hint` is Hydra's `error_hint`.
 */
export class AuthorizeError extends AppError {
  constructor(
    readonly reason: AuthorizeErrorCode,
    message: string,
    readonly hint: string | undefined = undefined,
    wireCode: string = reason,
  ) {
    super(kindOf(reason), wireCode, message);
    this.name = 'AuthorizeError';
  }

  static invalidRequest(message: string): AuthorizeError {
    return new AuthorizeError(AuthorizeErrorCode.InvalidRequest, message);
  }

  /** A login or consent rejection: delivered to the client with the app's error, description and hint. */
  static rejected(error: string, description: string, hint: string | undefined): AuthorizeError {
    return new AuthorizeError(AuthorizeErrorCode.Rejected, description, hint, error);
  }

  /**
   * Shown to the user here even once the redirect URI is known (Hydra): an expired request or a CSRF
   * failure means the browser is not the one that started the flow, so the client gets nothing.
   */
  get shownHere(): boolean {
    return this.reason === AuthorizeErrorCode.RequestUnauthorized || this.reason === AuthorizeErrorCode.RequestForbidden;
  }
}
