import { AppError, type AppErrorOptions } from '../common/errors/app-error.js';
import { ErrorKind } from '../common/errors/error-kind.js';

export enum DirectorySyncErrorCode {
  /** No connection with that id. */
  NotFound = 'not_found',
  /** A malformed admin request (body, query). */
  InvalidRequest = 'invalid_request',
  /** `Service-Signature` missing, malformed, or not made with the connection's secret. */
  InvalidSignature = 'invalid_signature',
  /** The signature's timestamp is further from now than WEBHOOKS_TOLERANCE, past or future. */
  StaleTimestamp = 'stale_timestamp',
  /** The body is not one event or an array of events of the expected shape. */
  MalformedEnvelope = 'malformed_envelope',
  /** The connection has too many deliveries waiting on this instance; nothing was applied. */
  TooManyDeliveries = 'too_many_deliveries',
  /** An event about a directory user this connection has not provisioned (logged, never answered). */
  UnknownUser = 'unknown_user',
  /** An older event for a user than one already applied (logged as `duplicate`, never answered). */
  Superseded = 'superseded',
}

/** The only error the directory-sync context throws (identity family, `jsonError`). */
export class DirectorySyncError extends AppError {
  constructor(
    readonly reason: DirectorySyncErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(kindOf(reason), reason, message, options);
    this.name = 'DirectorySyncError';
  }

  static notFound(): DirectorySyncError {
    return new DirectorySyncError(DirectorySyncErrorCode.NotFound, 'The requested directory-sync connection does not exist.');
  }

  static invalidRequest(field: string, problem: string): DirectorySyncError {
    return new DirectorySyncError(DirectorySyncErrorCode.InvalidRequest, `${field}: ${problem}`, { details: { field } });
  }

  static invalidSignature(problem: string): DirectorySyncError {
    return new DirectorySyncError(DirectorySyncErrorCode.InvalidSignature, `The Service-Signature header is invalid: ${problem}`);
  }

  static staleTimestamp(): DirectorySyncError {
    return new DirectorySyncError(DirectorySyncErrorCode.StaleTimestamp, 'The signature timestamp is outside the accepted window.');
  }

  static malformedEnvelope(path: string, problem: string): DirectorySyncError {
    return new DirectorySyncError(DirectorySyncErrorCode.MalformedEnvelope, `${path}: ${problem}`, { details: { path } });
  }

  static tooManyDeliveries(): DirectorySyncError {
    return new DirectorySyncError(
      DirectorySyncErrorCode.TooManyDeliveries,
      'Too many deliveries for this connection are waiting; nothing was applied.',
      { headers: { 'retry-after': '1' } },
    );
  }

  static unknownUser(): DirectorySyncError {
    return new DirectorySyncError(DirectorySyncErrorCode.UnknownUser, 'The directory user is not provisioned by this connection.');
  }

  static superseded(): DirectorySyncError {
    return new DirectorySyncError(DirectorySyncErrorCode.Superseded, 'A newer event for this user was applied already.');
  }
}

function kindOf(reason: DirectorySyncErrorCode): ErrorKind {
  switch (reason) {
    case DirectorySyncErrorCode.NotFound:
      return ErrorKind.NotFound;
    case DirectorySyncErrorCode.InvalidRequest:
    case DirectorySyncErrorCode.MalformedEnvelope:
    case DirectorySyncErrorCode.UnknownUser:
      return ErrorKind.BadRequest;
    case DirectorySyncErrorCode.InvalidSignature:
    case DirectorySyncErrorCode.StaleTimestamp:
      return ErrorKind.Unauthorized;
    case DirectorySyncErrorCode.TooManyDeliveries:
      return ErrorKind.Unavailable;
    case DirectorySyncErrorCode.Superseded:
      return ErrorKind.Conflict;
  }
}
