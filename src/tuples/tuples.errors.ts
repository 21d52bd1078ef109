import { AppError, type AppErrorOptions } from '../common/errors/app-error.js';
import { ErrorKind } from '../common/errors/error-kind.js';

export enum TuplesErrorCode {
  /** The namespace is not configured (NAMESPACES). A check answers `allowed: false` instead. */
  UnknownNamespace = 'unknown_namespace',
  /** A subject string is neither a subject id nor a subject set `namespace:object#relation`. */
  MalformedSubject = 'malformed_subject',
  /** A namespace, object or relation is empty, too long, or holds a character it may not. */
  InvalidTuple = 'invalid_relation_tuple',
  /** A `page_token` this service did not issue, or issued for other filters. */
  InvalidPageToken = 'invalid_page_token',
}

/** The only error the tuples context throws. `details.field` names the offending field. */
export class TuplesError extends AppError {
  constructor(
    readonly reason: TuplesErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    const [kind, wire] = wireOf(reason);
    super(kind, wire, message, options);
    this.name = 'TuplesError';
  }

  static unknownNamespace(field: string): TuplesError {
    // The name itself is not echoed: it may be any string the caller sent.
    return new TuplesError(TuplesErrorCode.UnknownNamespace, `${field}: unknown namespace.`, { details: { field } });
  }

  static malformedSubject(field: string, problem: string): TuplesError {
    return new TuplesError(TuplesErrorCode.MalformedSubject, `${field}: ${problem}`, { details: { field } });
  }

  static invalid(field: string, problem: string): TuplesError {
    return new TuplesError(TuplesErrorCode.InvalidTuple, `${field}: ${problem}`, { details: { field } });
  }

  static invalidPageToken(cause?: unknown): TuplesError {
    return new TuplesError(TuplesErrorCode.InvalidPageToken, 'page_token: the page token is invalid or belongs to other filters.', {
      details: { field: 'page_token' },
      cause,
    });
  }
}

function wireOf(reason: TuplesErrorCode): readonly [ErrorKind, string] {
  switch (reason) {
    case TuplesErrorCode.UnknownNamespace:
      return [ErrorKind.NotFound, 'unknown_namespace'];
    case TuplesErrorCode.MalformedSubject:
      return [ErrorKind.BadRequest, 'malformed_subject'];
    case TuplesErrorCode.InvalidTuple:
      return [ErrorKind.BadRequest, 'invalid_relation_tuple'];
    case TuplesErrorCode.InvalidPageToken:
      return [ErrorKind.BadRequest, 'invalid_page_token'];
  }
}
