import { AppError, type AppErrorOptions } from '../common/errors/app-error.js';
import { ErrorKind } from '../common/errors/error-kind.js';

export enum DecisionsErrorCode {
  /** No authenticator accepted the request's credentials, or one refused them. */
  Unauthorized = 'unauthorized',
  /** The authorizer, or an authenticator's audience, issuer or scope check, refused the request. */
  Forbidden = 'forbidden',
  /** The matched rule names a handler that is disabled, unknown or misconfigured. */
  RuleMisconfigured = 'rule_misconfigured',
  /** A handler failed (an outbound call, a key that cannot sign). */
  HandlerFailed = 'handler_failed',
  /** The request is not one a decision can be made on (a URL that does not parse). */
  InvalidRequest = 'invalid_request',
  /** The caller may not use the decision API (not an allowed peer). */
  PeerNotAllowed = 'peer_not_allowed',
  /** The matched rule names no upstream, on the proxy. */
  NoUpstream = 'no_upstream',
  /** The upstream did not answer, or not in time. */
  UpstreamUnavailable = 'upstream_unavailable',
  /** A service a handler calls (authorizer, hydrator, introspection, JWKS URL) did not answer: worth retrying. */
  DependencyUnavailable = 'dependency_unavailable',
}

/** The only error the decisions context throws. */
export class DecisionsError extends AppError {
  constructor(
    readonly reason: DecisionsErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(kindOf(reason), reason, message, options);
    this.name = 'DecisionsError';
  }

  static unauthorized(message = 'Access credentials are invalid.', headers?: Readonly<Record<string, string>>): DecisionsError {
    return new DecisionsError(DecisionsErrorCode.Unauthorized, message, headers === undefined ? {} : { headers });
  }

  static forbidden(message = 'Access credentials are not sufficient to access this resource.'): DecisionsError {
    return new DecisionsError(DecisionsErrorCode.Forbidden, message);
  }

  static misconfigured(message: string): DecisionsError {
    return new DecisionsError(DecisionsErrorCode.RuleMisconfigured, message, { cause: new Error(message) });
  }

  static failed(message: string, cause?: unknown): DecisionsError {
    return new DecisionsError(DecisionsErrorCode.HandlerFailed, message, { cause: cause ?? new Error(message) });
  }

  /** 503 + Retry-After rather than 500: the rule is fine, the service it calls is down or slow for now. */
  static unreachable(message: string, cause: unknown, retryAfterSeconds = 1): DecisionsError {
    return new DecisionsError(DecisionsErrorCode.DependencyUnavailable, message, {
      cause,
      headers: { 'retry-after': String(retryAfterSeconds) },
    });
  }
}

function kindOf(reason: DecisionsErrorCode): ErrorKind {
  switch (reason) {
    case DecisionsErrorCode.Unauthorized:
      return ErrorKind.Unauthorized;
    case DecisionsErrorCode.Forbidden:
    case DecisionsErrorCode.PeerNotAllowed:
      return ErrorKind.Forbidden;
    case DecisionsErrorCode.InvalidRequest:
      return ErrorKind.BadRequest;
    case DecisionsErrorCode.RuleMisconfigured:
    case DecisionsErrorCode.HandlerFailed:
    case DecisionsErrorCode.NoUpstream:
      return ErrorKind.Internal;
    case DecisionsErrorCode.UpstreamUnavailable:
      return ErrorKind.BadGateway;
    case DecisionsErrorCode.DependencyUnavailable:
      return ErrorKind.Unavailable;
  }
}
