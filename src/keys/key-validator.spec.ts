import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateKey } from './key-generator.js';
import { KEY_ALGORITHMS } from './key-algorithms.js';
import { validateJwk, validateKeySet, type JwkInput, type ValidatedKey } from './key-validator.js';
import { KeysError, KeysErrorCode } from './keys.errors.js';

function rsa(bits = 2048, alg = 'RS256'): JwkInput {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return { ...(privateKey.export({ format: 'jwk' }) as JwkInput), kid: 'rsa', alg };
}

function ec(crv = 'P-256', alg = 'ES256'): JwkInput {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: crv });
  return { ...(privateKey.export({ format: 'jwk' }) as JwkInput), kid: 'ec', alg };
}

function ed25519(): JwkInput {
  const { privateKey } = generateKeyPairSync('ed25519');
  return { ...(privateKey.export({ format: 'jwk' }) as JwkInput), kid: 'ed', alg: 'EdDSA' };
}

function oct(bytes = 32, alg = 'HS256'): JwkInput {
  return { kty: 'oct', k: randomBytes(bytes).toString('base64url'), kid: 'oct', alg };
}

function withoutPrivate(jwk: JwkInput): JwkInput {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...rest } = jwk;
  return rest;
}

async function reasonOf(input: JwkInput, context = {}): Promise<KeysErrorCode | undefined> {
  try {
    await validateJwk(input, context);
    return undefined;
  } catch (error) {
    if (error instanceof KeysError) return error.reason;
    throw error;
  }
}

const RSA_KEY = rsa();
const OTHER_RSA_KEY = rsa();
const EC_KEY = ec();

describe('validateJwk accepts', () => {
  it.each([
    ['RS256', () => rsa(2048, 'RS256')],
    ['RS512', () => rsa(3072, 'RS512')],
    ['PS256', () => rsa(2048, 'PS256')],
    ['ES256', () => ec('P-256', 'ES256')],
    ['ES384', () => ec('P-384', 'ES384')],
    ['ES512', () => ec('P-521', 'ES512')],
    ['EdDSA', ed25519],
    ['HS256', () => oct(32, 'HS256')],
    ['HS512', () => oct(64, 'HS512')],
  ])('a %s key, and splits it into public and private members', async (alg, make) => {
    const input = make();
    const key = await validateJwk({ ...input, use: 'sig' });
    expect(key.publicJwk).toMatchObject({ kid: input.kid, kty: input.kty, alg, use: 'sig' });
    for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k']) expect(key.publicJwk).not.toHaveProperty(member);
    expect(key.privateMembers).toBeDefined();
    if (input.kty === 'oct') expect(key.privateMembers).toEqual({ k: input.k });
    else expect(key.privateMembers!.d).toBe(input.d);
  });

  it('public-only asymmetric keys, with no private members', async () => {
    const key = await validateJwk(withoutPrivate(RSA_KEY));
    expect(key.privateMembers).toBeUndefined();
    expect(key.publicJwk).toEqual({ kid: 'rsa', kty: 'RSA', alg: 'RS256', n: RSA_KEY.n, e: RSA_KEY.e });
  });

  it('a body without kid under the kid of the path', async () => {
    const { kid: _kid, ...input } = EC_KEY;
    expect((await validateJwk(input, { kidFromPath: 'from-path' })).publicJwk.kid).toBe('from-path');
    expect((await validateJwk(EC_KEY, { kidFromPath: 'ec' })).publicJwk.kid).toBe('ec');
  });

  it('every generated key', async () => {
    for (const alg of KEY_ALGORITHMS) {
      const key = await generateKey(alg, 'sig', `gen-${alg}`);
      expect(key.publicJwk).toMatchObject({ kid: `gen-${alg}`, alg, use: 'sig' });
      expect(key.privateMembers).toBeDefined();
    }
  });
});

describe('validateJwk refuses', () => {
  it.each<[string, () => JwkInput, KeysErrorCode, object?]>([
    ['a missing kid', () => ({ ...EC_KEY, kid: undefined }), KeysErrorCode.MalformedKey],
    ['a kid with spaces', () => ({ ...EC_KEY, kid: 'a b' }), KeysErrorCode.InvalidName],
    ['a kid longer than 255', () => ({ ...EC_KEY, kid: 'k'.repeat(256) }), KeysErrorCode.InvalidName],
    ['a kid other than the path', () => EC_KEY, KeysErrorCode.KidMismatch, { kidFromPath: 'other' }],
    ['a missing alg', () => ({ ...EC_KEY, alg: undefined }), KeysErrorCode.MalformedKey],
    ['alg none', () => ({ ...oct(), alg: 'none' }), KeysErrorCode.UnsupportedAlgorithm],
    ['RS384', () => ({ ...RSA_KEY, alg: 'RS384' }), KeysErrorCode.UnsupportedAlgorithm],
    ['use sign', () => ({ ...EC_KEY, use: 'sign' }), KeysErrorCode.InvalidUse],
    ['a missing kty', () => ({ ...EC_KEY, kty: undefined }), KeysErrorCode.MalformedKey],
    ['kty EC for RS256', () => ({ ...EC_KEY, alg: 'RS256' }), KeysErrorCode.KeyTypeMismatch],
    ['kty RSA for EdDSA', () => ({ ...RSA_KEY, alg: 'EdDSA' }), KeysErrorCode.KeyTypeMismatch],
    ['kty oct for ES256', () => ({ ...oct(), alg: 'ES256' }), KeysErrorCode.KeyTypeMismatch],
    ['crv P-256 for ES512', () => ({ ...EC_KEY, alg: 'ES512' }), KeysErrorCode.KeyTypeMismatch],
    ['a missing crv', () => ({ ...EC_KEY, crv: undefined }), KeysErrorCode.MalformedKey],
    ['crv on an RSA key', () => ({ ...RSA_KEY, crv: 'P-256' }), KeysErrorCode.MalformedKey],
    ['k on an EC key', () => ({ ...EC_KEY, k: 'AAAA' }), KeysErrorCode.MalformedKey],
    ['a missing n', () => ({ ...RSA_KEY, n: undefined }), KeysErrorCode.MalformedKey],
    ['a missing y', () => ({ ...EC_KEY, y: undefined }), KeysErrorCode.MalformedKey],
    ['a missing k', () => ({ ...oct(), k: undefined }), KeysErrorCode.MalformedKey],
    ['base64 with padding', () => ({ ...EC_KEY, x: `${EC_KEY.x!}=` }), KeysErrorCode.MalformedKey],
    ['an empty member', () => ({ ...EC_KEY, d: '' }), KeysErrorCode.MalformedKey],
    ['a 1024-bit RSA key', () => rsa(1024), KeysErrorCode.WeakKey],
    ['a 2047-bit modulus', () => ({ ...withoutPrivate(RSA_KEY), n: halveTopBit(RSA_KEY.n!) }), KeysErrorCode.WeakKey],
    ['a 31-byte HS256 secret', () => oct(31), KeysErrorCode.WeakKey],
    ['a 63-byte HS512 secret', () => oct(63, 'HS512'), KeysErrorCode.WeakKey],
    ['a 2 KiB secret', () => oct(2048), KeysErrorCode.MalformedKey],
    ['a short EC coordinate', () => ({ ...EC_KEY, y: EC_KEY.y!.slice(2) }), KeysErrorCode.MalformedKey],
    [
      'a point off the curve',
      () => ({ ...withoutPrivate(EC_KEY), y: Buffer.alloc(32, 3).toString('base64url') }),
      KeysErrorCode.MalformedKey,
    ],
    ['part of an RSA private key', () => ({ ...withoutPrivate(RSA_KEY), d: RSA_KEY.d }), KeysErrorCode.MalformedKey],
    ['a private part of another RSA key', () => ({ ...OTHER_RSA_KEY, n: RSA_KEY.n, e: RSA_KEY.e }), KeysErrorCode.InconsistentKey],
    ['a private part of another EC key', () => ({ ...EC_KEY, d: ec().d }), KeysErrorCode.InconsistentKey],
    ['x5c on an oct key', () => ({ ...oct(), x5c: ['AAAA'] }), KeysErrorCode.MalformedKey],
    ['an empty x5c', () => ({ ...EC_KEY, x5c: [] }), KeysErrorCode.MalformedKey],
    ['x5c that is not a certificate', () => ({ ...EC_KEY, x5c: ['AAAA'] }), KeysErrorCode.MalformedKey],
  ])('%s', async (_name, make, reason, context) => {
    expect(await reasonOf(make(), context)).toBe(reason);
  });

  it('names the position of a key in a set', async () => {
    const error = (await validateJwk(oct(8), { index: 3 }).catch((caught: unknown) => caught)) as KeysError;
    expect(error.details).toEqual({ reason: KeysErrorCode.WeakKey, key: 3 });
    expect(error.message).toMatch(/^keys\[3\]/);
  });
});

describe('validateKeySet', () => {
  const key = (kid: string): ValidatedKey => ({ publicJwk: { kid, kty: 'oct', alg: 'HS256' }, privateMembers: { k: 'x' } });

  function reasonOfSet(keys: ValidatedKey[]): KeysErrorCode | undefined {
    try {
      validateKeySet(keys);
      return undefined;
    } catch (error) {
      return (error as KeysError).reason;
    }
  }

  it('accepts up to 100 keys with distinct kids', () => {
    expect(reasonOfSet([key('a')])).toBeUndefined();
    expect(reasonOfSet(Array.from({ length: 100 }, (_, i) => key(`k${i}`)))).toBeUndefined();
  });

  it('refuses an empty set, more than 100 keys, and duplicate kids', () => {
    expect(reasonOfSet([])).toBe(KeysErrorCode.EmptySet);
    expect(reasonOfSet(Array.from({ length: 101 }, (_, i) => key(`k${i}`)))).toBe(KeysErrorCode.TooManyKeys);
    expect(reasonOfSet([key('a'), key('b'), key('a')])).toBe(KeysErrorCode.DuplicateKid);
  });
});

describe('KeysError', () => {
  it('maps every code to a kind and a wire error', () => {
    for (const code of Object.values(KeysErrorCode)) {
      const error = new KeysError(code, 'message');
      expect(['invalid_request', 'not_found', 'conflict', 'internal_error']).toContain(error.code);
      if (error.code === 'internal_error') expect(error.details).toBeUndefined();
      else expect(error.details).toEqual({ reason: code });
    }
  });
});

/** The same modulus with its top bit cleared: one bit shorter. */
function halveTopBit(n: string): string {
  const bytes = Buffer.from(n, 'base64url');
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('base64url');
}
