import { AppError } from '../../common/errors/app-error.js';
import { ErrorKind } from '../../common/errors/error-kind.js';

export enum LogoutErrorCode {
  /** A parameter is repeated, or state / post_logout_redirect_uri / id_token_hint are not acceptable. */
  InvalidRequest = 'invalid_request',
}

/** What the logout endpoint refuses before the consent context sees the logout. */
export class LogoutError extends AppError {
  constructor(
    readonly reason: LogoutErrorCode,
    message: string,
  ) {
    super(kindOf(reason), reason, message);
    this.name = 'LogoutError';
  }

  static invalidRequest(message: string): LogoutError {
    return new LogoutError(LogoutErrorCode.InvalidRequest, message);
  }
}

function kindOf(reason: LogoutErrorCode): ErrorKind {
  switch (reason) {
    case LogoutErrorCode.InvalidRequest:
      return ErrorKind.BadRequest;
  }
}
