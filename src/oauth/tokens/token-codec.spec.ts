import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TokenCodec } from './token-codec.js';

const codec = (...system: string[]): TokenCodec => new TokenCodec({ system });
const FIRST = 'first-system-secret-0123456789';
const SECOND = 'second-system-secret-0123456789';

describe('TokenCodec', () => {
  it('mints prefixed tokens with 256 random bits and returns the signature to store', () => {
    const { token, signature } = codec(FIRST).mint('access_token');
    expect(token).toMatch(/^lk_at_[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    expect(token.endsWith(`.${signature}`)).toBe(true);
    expect(codec(FIRST).mint('refresh_token').token).toMatch(/^lk_rt_/);
    expect(codec(FIRST).mint('authorization_code').token).toMatch(/^lk_ac_/);
    expect(codec(FIRST).mint('access_token').token).not.toBe(token);
  });

  it('verifies its own tokens and refuses forged or tampered ones without a lookup', () => {
    const { token, signature } = codec(FIRST).mint('access_token');
    expect(codec(FIRST).signatureOf('access_token', token)).toBe(signature);
    expect(codec(SECOND).signatureOf('access_token', token)).toBeUndefined();
    const body = token.slice(0, token.indexOf('.'));
    const tampered = `${body.slice(0, -1)}${body.endsWith('A') ? 'B' : 'A'}.${signature}`;
    expect(codec(FIRST).signatureOf('access_token', tampered)).toBeUndefined();
    expect(codec(FIRST).signatureOf('access_token', 'garbage')).toBeUndefined();
  });

  it('binds the kind: an access token is not a refresh token, even with the prefix swapped', () => {
    const { token } = codec(FIRST).mint('access_token');
    expect(codec(FIRST).signatureOf('refresh_token', token)).toBeUndefined();
    expect(codec(FIRST).signatureOf('refresh_token', token.replace('lk_at_', 'lk_rt_'))).toBeUndefined();
  });

  it('keeps accepting tokens of a rotated-out secret while signing with the new first one', () => {
    const old = codec(FIRST).mint('refresh_token');
    const rotated = codec(SECOND, FIRST);
    expect(rotated.signatureOf('refresh_token', old.token)).toBe(old.signature);
    const fresh = rotated.mint('refresh_token');
    expect(codec(SECOND).signatureOf('refresh_token', fresh.token)).toBe(fresh.signature);
  });

  it('tells kinds apart and keys JWTs by the SHA-256 of their signature part', () => {
    const c = codec(FIRST);
    expect(c.kindOf(c.mint('authorization_code').token)).toBe('authorization_code');
    expect(c.kindOf('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl')).toBe('jwt');
    expect(c.kindOf('nothing we know')).toBeUndefined();
    expect(c.jwtSignatureOf('a.b.c2lnbmF0dXJl')).toBe(createHash('sha256').update('c2lnbmF0dXJl').digest('base64url'));
  });
});
