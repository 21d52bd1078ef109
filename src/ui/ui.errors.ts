import { AppError } from '../common/errors/app-error.js';
import { ErrorKind } from '../common/errors/error-kind.js';

export enum UiErrorCode {
  /** The page is switched off (its URL setting points at an app of one's own), or there is no such page. */
  PageNotFound = 'not_found',
  /** A form of a built-in page came back without a field it needs, or with a value it never offers. */
  InvalidRequest = 'invalid_request',
}

/** The only error the ui context throws; the pages show it (status and code), never its internals. */
export class UiError extends AppError {
  constructor(
    readonly reason: UiErrorCode,
    message: string,
  ) {
    super(kindOf(reason), reason, message);
    this.name = 'UiError';
  }

  static pageNotFound(): UiError {
    return new UiError(UiErrorCode.PageNotFound, 'This page is not served here.');
  }

  static invalidRequest(field: string): UiError {
    return new UiError(UiErrorCode.InvalidRequest, `The form field ${field} is missing or invalid.`);
  }
}

function kindOf(reason: UiErrorCode): ErrorKind {
  switch (reason) {
    case UiErrorCode.PageNotFound:
      return ErrorKind.NotFound;
    case UiErrorCode.InvalidRequest:
      return ErrorKind.BadRequest;
  }
}
