import { CompactSign, compactVerify, exportJWK, importJWK, importX509 } from 'jose';
import {
  ALGORITHM_PROFILES,
  isKeyAlgorithm,
  KEY_USES,
  MAX_SECRET_BYTES,
  RSA_MAX_BITS,
  RSA_MIN_BITS,
  type KeyUse,
} from './key-algorithms.js';
import { MAX_KEYS_PER_SET, NAME_PATTERN } from './key-sets.js';
import {
  keyMaterial,
  PRIVATE_JWK_MEMBERS,
  PRIVATE_MEMBERS,
  PUBLIC_MEMBERS,
  type PrivateJwkMembers,
  type PrivateMember,
  type PublicJwk,
} from './jwk.js';
import { KeysError, KeysErrorCode } from './keys.errors.js';

/** The private members an imported key may carry: `oth` never reaches here (the import DTO refuses it). */
const STORABLE_PRIVATE_MEMBERS = PRIVATE_JWK_MEMBERS.filter((member): member is PrivateMember => member !== 'oth');

/** A JWK as received (the members of `jsonWebKey`), before any check. */
export interface JwkInput {
  readonly kid?: string;
  readonly kty?: string;
  readonly alg?: string;
  readonly use?: string;
  readonly crv?: string;
  readonly x?: string;
  readonly y?: string;
  readonly n?: string;
  readonly e?: string;
  readonly d?: string;
  readonly p?: string;
  readonly q?: string;
  readonly dp?: string;
  readonly dq?: string;
  readonly qi?: string;
  readonly k?: string;
  readonly x5c?: readonly string[];
}

/** A key that passed every check, split into what may be stored in clear and what must be encrypted. */
export interface ValidatedKey {
  readonly publicJwk: PublicJwk;
  readonly privateMembers: PrivateJwkMembers | undefined;
}

export interface ValidationContext {
  /** Position in an imported set, named in messages and in `details.key`. */
  readonly index?: number;
  /** The kid of the URL (`PUT /keys/{set}/{kid}`): the body's kid must match it or be absent. */
  readonly kidFromPath?: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const PROBE = new TextEncoder().encode('latchkey key check');

/**
 * Checks that a JWK is a usable key for its `alg`, in the order a person fixing it would want to hear
 * about problems: names, algorithm, members, sizes, and finally that the key really works (imported
 * with jose; with a private part, a signature made with it verifies with the public part).
 */
export async function validateJwk(input: JwkInput, context: ValidationContext = {}): Promise<ValidatedKey> {
  const fail = (code: KeysErrorCode, message: string): KeysError =>
    new KeysError(code, context.index === undefined ? message : `keys[${context.index}]: ${message}`, { key: context.index });

  const kid = kidOf(input, context, fail);
  if (input.alg === undefined) throw fail(KeysErrorCode.MalformedKey, 'alg is required.');
  if (!isKeyAlgorithm(input.alg)) throw fail(KeysErrorCode.UnsupportedAlgorithm, `alg ${input.alg} is not supported.`);
  const alg = input.alg;
  const use = useOf(input.use, fail);
  const profile = ALGORITHM_PROFILES[alg];
  if (input.kty === undefined) throw fail(KeysErrorCode.MalformedKey, 'kty is required.');
  if (input.kty !== profile.kty) throw fail(KeysErrorCode.KeyTypeMismatch, `alg ${alg} needs kty ${profile.kty}, not ${input.kty}.`);
  const kty = profile.kty;

  if (profile.crv !== undefined) {
    if (input.crv === undefined) throw fail(KeysErrorCode.MalformedKey, `crv is required for kty ${kty}.`);
    if (input.crv !== profile.crv) throw fail(KeysErrorCode.KeyTypeMismatch, `alg ${alg} needs crv ${profile.crv}, not ${input.crv}.`);
  }
  const publicMembers = PUBLIC_MEMBERS[kty];
  const privateMembers = PRIVATE_MEMBERS[kty];
  for (const member of ['crv', 'x', 'y', 'n', 'e', ...STORABLE_PRIVATE_MEMBERS] as const) {
    if (input[member] === undefined) continue;
    if (!(publicMembers as readonly string[]).includes(member) && !(privateMembers as readonly string[]).includes(member)) {
      throw fail(KeysErrorCode.MalformedKey, `${member} is not a member of ${kty} keys.`);
    }
    if (member !== 'crv' && !BASE64URL.test(input[member])) throw fail(KeysErrorCode.MalformedKey, `${member} is not base64url.`);
  }
  for (const member of publicMembers) {
    if (input[member] === undefined) throw fail(KeysErrorCode.MalformedKey, `${member} is required for kty ${kty}.`);
  }

  const present = privateMembers.filter((member) => input[member] !== undefined);
  if (kty === 'oct' && present.length === 0) throw fail(KeysErrorCode.MalformedKey, 'k is required for kty oct.');
  if (kty === 'RSA' && present.length > 0 && present.length < privateMembers.length) {
    throw fail(KeysErrorCode.MalformedKey, 'an RSA private key needs all of d, p, q, dp, dq and qi.');
  }

  checkSizes(input, alg, fail);

  const publicJwk: PublicJwk = {
    kid,
    kty,
    alg,
    ...(use === undefined ? {} : { use }),
    ...pick(input, publicMembers),
    ...(input.x5c === undefined ? {} : { x5c: [...input.x5c] }),
  };
  const secret = present.length === 0 ? undefined : (pick(input, privateMembers) as PrivateJwkMembers);

  await checkUsable(publicJwk, secret, fail);
  if (input.x5c !== undefined) await checkCertificates(publicJwk, input.x5c, fail);
  return { publicJwk, privateMembers: secret };
}

/** Set-level checks of an import (`PUT /keys/{set}`), after each key passed `validateJwk`. */
export function validateKeySet(keys: readonly ValidatedKey[]): void {
  if (keys.length === 0) throw new KeysError(KeysErrorCode.EmptySet, 'A key set needs at least one key; DELETE removes a set.');
  if (keys.length > MAX_KEYS_PER_SET) {
    throw new KeysError(KeysErrorCode.TooManyKeys, `A key set holds at most ${MAX_KEYS_PER_SET} keys, not ${keys.length}.`);
  }
  const seen = new Map<string, number>();
  keys.forEach((key, index) => {
    const first = seen.get(key.publicJwk.kid);
    if (first !== undefined) {
      throw new KeysError(KeysErrorCode.DuplicateKid, `keys[${index}]: kid ${key.publicJwk.kid} is also the kid of keys[${first}].`, {
        key: index,
      });
    }
    seen.set(key.publicJwk.kid, index);
  });
}

export function checkName(what: 'set' | 'kid', value: string): void {
  if (!NAME_PATTERN.test(value)) {
    throw new KeysError(KeysErrorCode.InvalidName, `${what} must be 1 to 255 visible ASCII characters.`);
  }
}

export function checkUse(value: string | undefined): KeyUse | undefined {
  return useOf(value, (code, message) => new KeysError(code, message));
}

type Fail = (code: KeysErrorCode, message: string) => KeysError;

function kidOf(input: JwkInput, context: ValidationContext, fail: Fail): string {
  if (context.kidFromPath !== undefined && input.kid !== undefined && input.kid !== context.kidFromPath) {
    throw fail(KeysErrorCode.KidMismatch, `kid ${input.kid} in the body differs from kid ${context.kidFromPath} in the path.`);
  }
  const kid = input.kid ?? context.kidFromPath;
  if (kid === undefined) throw fail(KeysErrorCode.MalformedKey, 'kid is required.');
  if (!NAME_PATTERN.test(kid)) throw fail(KeysErrorCode.InvalidName, 'kid must be 1 to 255 visible ASCII characters.');
  return kid;
}

function useOf(use: string | undefined, fail: Fail): KeyUse | undefined {
  if (use === undefined) return undefined;
  if (!(KEY_USES as readonly string[]).includes(use)) throw fail(KeysErrorCode.InvalidUse, `use must be sig or enc, not ${use}.`);
  return use as KeyUse;
}

function checkSizes(input: JwkInput, alg: keyof typeof ALGORITHM_PROFILES, fail: Fail): void {
  const profile = ALGORITHM_PROFILES[alg];
  switch (profile.kty) {
    case 'RSA': {
      const bits = bitLength(Buffer.from(input.n!, 'base64url'));
      if (bits < RSA_MIN_BITS)
        throw fail(KeysErrorCode.WeakKey, `the RSA modulus has ${bits} bits; at least ${RSA_MIN_BITS} are required.`);
      if (bits > RSA_MAX_BITS)
        throw fail(KeysErrorCode.MalformedKey, `the RSA modulus has ${bits} bits; at most ${RSA_MAX_BITS} are accepted.`);
      return;
    }
    case 'EC':
    case 'OKP':
      for (const member of ['x', 'y', 'd'] as const) {
        const value = input[member];
        if (value !== undefined && Buffer.from(value, 'base64url').length !== profile.coordinateBytes) {
          throw fail(KeysErrorCode.MalformedKey, `${member} must be ${profile.coordinateBytes} bytes for ${profile.crv}.`);
        }
      }
      return;
    case 'oct': {
      const bytes = Buffer.from(input.k!, 'base64url').length;
      if (bytes < profile.minSecretBytes!) {
        throw fail(KeysErrorCode.WeakKey, `the ${alg} secret has ${bytes} bytes; at least ${profile.minSecretBytes} are required.`);
      }
      if (bytes > MAX_SECRET_BYTES)
        throw fail(KeysErrorCode.MalformedKey, `the secret has ${bytes} bytes; at most ${MAX_SECRET_BYTES} are accepted.`);
      return;
    }
  }
}

/** Imports the key with jose; with a private part, proves it belongs to the public part by a signature. */
async function checkUsable(publicJwk: PublicJwk, secret: PrivateJwkMembers | undefined, fail: Fail): Promise<void> {
  if (publicJwk.kty === 'oct') {
    await importJWK({ kty: 'oct', k: secret!.k }, publicJwk.alg).catch((cause: unknown) => {
      throw fail(KeysErrorCode.MalformedKey, `not a valid ${publicJwk.alg} secret (${reasonOf(cause)}).`);
    });
    return;
  }
  const material = keyMaterial(publicJwk);
  const verifier = await importJWK(material, publicJwk.alg).catch((cause: unknown) => {
    throw fail(KeysErrorCode.MalformedKey, `not a valid ${publicJwk.kty} public key for ${publicJwk.alg} (${reasonOf(cause)}).`);
  });
  if (secret === undefined) return;
  const signer = await importJWK({ ...material, ...secret }, publicJwk.alg).catch((cause: unknown) => {
    throw fail(KeysErrorCode.InconsistentKey, `the private members do not form a valid ${publicJwk.kty} key (${reasonOf(cause)}).`);
  });
  const signature = await new CompactSign(PROBE).setProtectedHeader({ alg: publicJwk.alg }).sign(signer);
  await compactVerify(signature, verifier).catch(() => {
    throw fail(KeysErrorCode.InconsistentKey, 'the private members do not belong to the public key.');
  });
}

/** The first certificate of `x5c` must hold this very key (RFC 7517 §4.7). */
async function checkCertificates(publicJwk: PublicJwk, chain: readonly string[], fail: Fail): Promise<void> {
  if (publicJwk.kty === 'oct') throw fail(KeysErrorCode.MalformedKey, 'x5c is not a member of oct keys.');
  if (chain.length === 0) throw fail(KeysErrorCode.MalformedKey, 'x5c must hold at least one certificate.');
  for (const [index, certificate] of chain.entries()) {
    if (!BASE64.test(certificate)) throw fail(KeysErrorCode.MalformedKey, `x5c[${index}] is not base64 (DER).`);
  }
  const pem = `-----BEGIN CERTIFICATE-----\n${chain[0]!.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`;
  const certified = await importX509(pem, publicJwk.alg, { extractable: true })
    .then((key) => exportJWK(key))
    .catch((cause: unknown) => {
      throw fail(KeysErrorCode.MalformedKey, `x5c[0] is not a certificate for a ${publicJwk.alg} key (${reasonOf(cause)}).`);
    });
  for (const member of PUBLIC_MEMBERS[publicJwk.kty]) {
    if (certified[member] !== publicJwk[member]) throw fail(KeysErrorCode.InconsistentKey, 'x5c[0] certifies another key.');
  }
}

function pick<T extends string>(source: Partial<Record<T, unknown>>, members: readonly T[]): Partial<Record<T, string>> {
  const out: Partial<Record<T, string>> = {};
  for (const member of members) {
    const value = source[member];
    if (typeof value === 'string') out[member] = value;
  }
  return out;
}

function bitLength(bytes: Buffer): number {
  let start = 0;
  while (start < bytes.length && bytes[start] === 0) start += 1;
  if (start === bytes.length) return 0;
  return (bytes.length - start - 1) * 8 + (32 - Math.clz32(bytes[start]!));
}

function reasonOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
