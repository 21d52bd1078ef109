import { AppError, type AppErrorOptions } from '../../common/errors/app-error.js';
import { ErrorKind } from '../../common/errors/error-kind.js';

/** RFC 6749 §5.2 / RFC 6750 §3.1 error codes raised by token issuing and the token-side endpoints. */
export enum TokenErrorCode {
  InvalidRequest = 'invalid_request',
  InvalidClient = 'invalid_client',
  InvalidGrant = 'invalid_grant',
  UnauthorizedClient = 'unauthorized_client',
  UnsupportedGrantType = 'unsupported_grant_type',
  InvalidScope = 'invalid_scope',
  /** RFC 6750: the bearer token presented to /userinfo is not an active access token. */
  InvalidToken = 'invalid_token',
}

/** The error of the oauth context's token side; the wire `error` is the code itself. */
export class TokenError extends AppError {
  constructor(
    readonly reason: TokenErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(kindOf(reason), reason, message, options);
    this.name = 'TokenError';
  }

  static invalidRequest(message: string, parameter?: string): TokenError {
    return new TokenError(TokenErrorCode.InvalidRequest, message, parameter === undefined ? {} : { details: { parameter } });
  }

  /**
   * Client authentication failed. When the client tried HTTP Basic, RFC 6749 §5.2 requires a 401 with
   * a `WWW-Authenticate` header for that scheme.
   */
  static invalidClient(
    usedBasic: boolean,
    message = 'Client authentication failed (unknown client, wrong credentials or wrong method).',
  ): TokenError {
    return new TokenError(
      TokenErrorCode.InvalidClient,
      message,
      usedBasic ? { headers: { 'www-authenticate': 'Basic realm="oauth2"' } } : {},
    );
  }

  static invalidGrant(message: string): TokenError {
    return new TokenError(TokenErrorCode.InvalidGrant, message);
  }

  static unauthorizedClient(message: string): TokenError {
    return new TokenError(TokenErrorCode.UnauthorizedClient, message);
  }

  static unsupportedGrantType(grantType: string): TokenError {
    return new TokenError(TokenErrorCode.UnsupportedGrantType, `The grant type ${JSON.stringify(grantType)} is not supported.`, {
      details: { parameter: 'grant_type' },
    });
  }

  static invalidScope(message: string): TokenError {
    return new TokenError(TokenErrorCode.InvalidScope, message);
  }

  static invalidToken(message: string): TokenError {
    // RFC 6750 §3: the challenge names the error; the description is fixed text (no client input in headers).
    return new TokenError(TokenErrorCode.InvalidToken, message, {
      headers: {
        'www-authenticate':
          'Bearer error="invalid_token", error_description="The access token is missing, expired, revoked or not an access token"',
      },
    });
  }
}

function kindOf(reason: TokenErrorCode): ErrorKind {
  switch (reason) {
    case TokenErrorCode.InvalidClient:
    case TokenErrorCode.InvalidToken:
      return ErrorKind.Unauthorized;
    case TokenErrorCode.InvalidRequest:
    case TokenErrorCode.InvalidGrant:
    case TokenErrorCode.UnauthorizedClient:
    case TokenErrorCode.UnsupportedGrantType:
    case TokenErrorCode.InvalidScope:
      return ErrorKind.BadRequest;
  }
}
