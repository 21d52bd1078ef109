import { AppError } from '../common/errors/app-error.js';
import { ErrorKind } from '../common/errors/error-kind.js';

export enum KeysErrorCode {
  SetNotFound = 'set_not_found',
  KeyNotFound = 'key_not_found',
  /** A set name or kid that is empty, too long or has characters outside visible ASCII. */
  InvalidName = 'invalid_name',
  /** A JWK that is not well formed: wrong member types, unknown or missing members, bad encodings. */
  MalformedKey = 'malformed_key',
  UnsupportedAlgorithm = 'unsupported_algorithm',
  /** `kty` (or `crv`) does not fit `alg`. */
  KeyTypeMismatch = 'key_type_mismatch',
  /** RSA modulus under 2048 bits, HMAC secret shorter than the hash. */
  WeakKey = 'weak_key',
  /** The private members do not belong to the public ones, or the certificate holds another key. */
  InconsistentKey = 'inconsistent_key',
  InvalidUse = 'invalid_use',
  KidMismatch = 'kid_mismatch',
  DuplicateKid = 'duplicate_kid',
  TooManyKeys = 'too_many_keys',
  EmptySet = 'empty_set',
  /** POST with a kid the set already holds. */
  KidTaken = 'kid_taken',
  /** A stored private key does not open under any configured system secret. */
  Undecryptable = 'key_undecryptable',
  /** A set exists but holds no private asymmetric signing key. */
  NoSigningKey = 'no_signing_key',
}

interface Mapping {
  readonly kind: ErrorKind;
  /** The wire `error` value (genericError). */
  readonly error: string;
}

function mappingOf(code: KeysErrorCode): Mapping {
  switch (code) {
    case KeysErrorCode.SetNotFound:
    case KeysErrorCode.KeyNotFound:
      return { kind: ErrorKind.NotFound, error: 'not_found' };
    case KeysErrorCode.InvalidName:
    case KeysErrorCode.MalformedKey:
    case KeysErrorCode.UnsupportedAlgorithm:
    case KeysErrorCode.KeyTypeMismatch:
    case KeysErrorCode.WeakKey:
    case KeysErrorCode.InconsistentKey:
    case KeysErrorCode.InvalidUse:
    case KeysErrorCode.KidMismatch:
    case KeysErrorCode.DuplicateKid:
    case KeysErrorCode.TooManyKeys:
    case KeysErrorCode.EmptySet:
      return { kind: ErrorKind.BadRequest, error: 'invalid_request' };
    case KeysErrorCode.KidTaken:
      return { kind: ErrorKind.Conflict, error: 'conflict' };
    case KeysErrorCode.Undecryptable:
    case KeysErrorCode.NoSigningKey:
      return { kind: ErrorKind.Internal, error: 'internal_error' };
  }
}

/**
 * The one error type of the keys context. The wire `error` is the RFC 6749-style value of the family;
 * `details.reason` carries the precise code for 4xx errors so that callers (and tests) need not read
 * messages. 5xx errors carry no details: their cause is logged and shown only as `debug`.
 */
export class KeysError extends AppError {
  constructor(
    readonly reason: KeysErrorCode,
    message: string,
    options: { cause?: unknown; key?: number } = {},
  ) {
    const { kind, error } = mappingOf(reason);
    const details = kind === ErrorKind.Internal ? undefined : { reason, ...(options.key === undefined ? {} : { key: options.key }) };
    super(kind, error, message, { cause: options.cause, ...(details === undefined ? {} : { details }) });
    this.name = 'KeysError';
  }
}
