import { AppError, type AppErrorOptions } from '../common/errors/app-error.js';
import { ErrorKind } from '../common/errors/error-kind.js';

export enum IdentitiesErrorCode {
  /** No identity with that id. */
  NotFound = 'not_found',
  /** No identity schema with that id (GET /schemas/{id}). */
  SchemaNotFound = 'schema_not_found',
  /** A create or update names a schema that does not exist. */
  UnknownSchema = 'unknown_schema',
  /** The traits break the identity schema; `details.path` names the trait. */
  InvalidTraits = 'invalid_traits',
  /** A malformed request the DTO layer cannot catch (credentials import, expires_in, list filters). */
  InvalidRequest = 'invalid_request',
  /** A login identifier or address belongs to another identity already. */
  Conflict = 'conflict',
  /** Another write to the same identity is in progress; nothing was written, the caller may retry. */
  ConcurrentUpdate = 'concurrent_update',
  /** A recovery link was asked for an identity without any recovery address. */
  NoRecoveryAddress = 'no_recovery_address',
}

/** The only error the identities context throws. */
export class IdentitiesError extends AppError {
  constructor(
    readonly reason: IdentitiesErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(kindOf(reason), reason, message, options);
    this.name = 'IdentitiesError';
  }

  static notFound(): IdentitiesError {
    return new IdentitiesError(IdentitiesErrorCode.NotFound, 'The requested identity does not exist.');
  }

  static schemaNotFound(): IdentitiesError {
    return new IdentitiesError(IdentitiesErrorCode.SchemaNotFound, 'The requested identity schema does not exist.');
  }

  static unknownSchema(id: string): IdentitiesError {
    return new IdentitiesError(IdentitiesErrorCode.UnknownSchema, `schema_id: Unable to find JSON Schema ID: ${id}`, {
      details: { field: 'schema_id' },
    });
  }

  static invalidTraits(path: string, problem: string, keyword: string): IdentitiesError {
    return new IdentitiesError(IdentitiesErrorCode.InvalidTraits, `${path}: ${problem}`, { details: { path, keyword } });
  }

  static invalidRequest(field: string, problem: string): IdentitiesError {
    return new IdentitiesError(IdentitiesErrorCode.InvalidRequest, `${field}: ${problem}`, { details: { field } });
  }

  static conflict(field: string, cause: unknown): IdentitiesError {
    return new IdentitiesError(
      IdentitiesErrorCode.Conflict,
      'Unable to insert or update resource because a resource with that value exists already.',
      { details: { field }, cause },
    );
  }

  static concurrentUpdate(cause: unknown): IdentitiesError {
    return new IdentitiesError(
      IdentitiesErrorCode.ConcurrentUpdate,
      'The identity is being changed by another request; nothing was written. Retry with the full body.',
      { cause },
    );
  }

  static noRecoveryAddress(): IdentitiesError {
    return new IdentitiesError(IdentitiesErrorCode.NoRecoveryAddress, 'The identity does not have any recovery addresses set.');
  }
}

function kindOf(reason: IdentitiesErrorCode): ErrorKind {
  switch (reason) {
    case IdentitiesErrorCode.NotFound:
    case IdentitiesErrorCode.SchemaNotFound:
      return ErrorKind.NotFound;
    case IdentitiesErrorCode.UnknownSchema:
    case IdentitiesErrorCode.InvalidTraits:
    case IdentitiesErrorCode.InvalidRequest:
    case IdentitiesErrorCode.NoRecoveryAddress:
      return ErrorKind.BadRequest;
    case IdentitiesErrorCode.Conflict:
    case IdentitiesErrorCode.ConcurrentUpdate:
      return ErrorKind.Conflict;
  }
}
