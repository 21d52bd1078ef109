import { AppError, type AppErrorOptions } from '../common/errors/app-error.js';
import { ErrorKind } from '../common/errors/error-kind.js';

export enum PoliciesErrorCode {
  /** The `{flavor}` path segment is not `regex`, `glob` or `exact`. */
  UnknownFlavor = 'unknown_flavor',
  PolicyNotFound = 'policy_not_found',
  RoleNotFound = 'role_not_found',
  /** A subject, resource or action pattern does not compile for the flavor. */
  InvalidPattern = 'invalid_pattern',
  /** A condition of unknown type, or with unusable options. */
  InvalidCondition = 'invalid_condition',
  /** A path parameter, query parameter or body member is malformed (type, length, control characters). */
  InvalidInput = 'invalid_input',
  /** Adding the members would take the role past its size limit. */
  RoleTooLarge = 'role_too_large',
}

/** The only error the policies context throws. `details.field` names what is wrong when one thing is. */
export class PoliciesError extends AppError {
  constructor(
    readonly reason: PoliciesErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    const [kind, wire] = wireOf(reason);
    super(kind, wire, message, options);
    this.name = 'PoliciesError';
  }

  static unknownFlavor(): PoliciesError {
    return new PoliciesError(PoliciesErrorCode.UnknownFlavor, 'Unknown flavor: use regex, glob or exact.');
  }

  static policyNotFound(): PoliciesError {
    return new PoliciesError(PoliciesErrorCode.PolicyNotFound, 'The requested policy does not exist.');
  }

  static roleNotFound(): PoliciesError {
    return new PoliciesError(PoliciesErrorCode.RoleNotFound, 'The requested role does not exist.');
  }

  static invalidPattern(field: string, message: string): PoliciesError {
    return new PoliciesError(PoliciesErrorCode.InvalidPattern, message, { details: { field } });
  }

  static invalidCondition(field: string, message: string): PoliciesError {
    return new PoliciesError(PoliciesErrorCode.InvalidCondition, message, { details: { field } });
  }

  static invalidInput(field: string, problem: string, cause?: unknown): PoliciesError {
    return new PoliciesError(PoliciesErrorCode.InvalidInput, `${field}: ${problem}`, { details: { field }, cause });
  }

  static roleTooLarge(limit: number): PoliciesError {
    return new PoliciesError(PoliciesErrorCode.RoleTooLarge, `members: a role has at most ${limit} members.`, {
      details: { field: 'members' },
    });
  }
}

function wireOf(reason: PoliciesErrorCode): readonly [ErrorKind, string] {
  switch (reason) {
    case PoliciesErrorCode.UnknownFlavor:
      return [ErrorKind.NotFound, 'unknown_flavor'];
    case PoliciesErrorCode.PolicyNotFound:
      return [ErrorKind.NotFound, 'policy_not_found'];
    case PoliciesErrorCode.RoleNotFound:
      return [ErrorKind.NotFound, 'role_not_found'];
    case PoliciesErrorCode.InvalidPattern:
      return [ErrorKind.BadRequest, 'invalid_pattern'];
    case PoliciesErrorCode.InvalidCondition:
      return [ErrorKind.BadRequest, 'invalid_condition'];
    case PoliciesErrorCode.InvalidInput:
      return [ErrorKind.BadRequest, 'invalid_request'];
    case PoliciesErrorCode.RoleTooLarge:
      return [ErrorKind.BadRequest, 'role_too_large'];
  }
}
