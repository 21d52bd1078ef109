import { createHash } from 'node:crypto';
import { decodeProtectedHeader, generateKeyPair, jwtVerify, type CryptoKey } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OAuth2Config, UrlsConfig } from '../../config/app-config.js';
import type { KeysService } from '../../keys/index.js';
import { IdTokenSigner } from './id-token.signer.js';
import type { TokenSession } from './token-session.js';

const ISSUER = 'https://id.example.com';
let signer: IdTokenSigner;
let publicKey: CryptoKey;

const session: TokenSession = {
  grantType: 'authorization_code',
  idTokenSubject: 'pairwise-sub',
  accessTokenClaims: {},
  idTokenClaims: { email: 'a@example.com', sub: 'attacker', iss: 'https://evil.example', aud: 'evil', nonce: 'forged', exp: 9999999999 },
  nonce: 'n-1',
  authTime: 1_700_000_000,
  requestedAt: 1_700_000_010,
  acr: 'acr-1',
  amr: ['pwd', 'otp'],
  sid: 'session-1',
};

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  publicKey = pair.publicKey;
  const keys = { signingKey: async () => ({ kid: 'k1', alg: 'ES256', key: pair.privateKey }) } as unknown as KeysService;
  signer = new IdTokenSigner(keys, { ttl: { idToken: 3600 } } as OAuth2Config, { issuer: ISSUER, issuerIdentifier: ISSUER } as UrlsConfig);
});

describe('IdTokenSigner', () => {
  it('sets the protected claims itself: consent claims cannot replace sub, iss, aud, nonce or exp', async () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const token = await signer.sign({ clientId: 'client-1', session, withNonce: true, now });
    const { payload } = await jwtVerify(token, publicKey, { issuer: ISSUER, audience: 'client-1', currentDate: now });
    expect(payload).toMatchObject({
      iss: ISSUER,
      sub: 'pairwise-sub',
      aud: ['client-1'],
      nonce: 'n-1',
      iat: 1_767_225_600,
      exp: 1_767_225_600 + 3600,
      auth_time: 1_700_000_000,
      rat: 1_700_000_010,
      acr: 'acr-1',
      amr: ['pwd', 'otp'],
      sid: 'session-1',
      email: 'a@example.com',
    });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid: 'k1', typ: 'JWT' });
  });

  it('adds at_hash and c_hash (left half of SHA-256), and leaves the nonce out on refresh', async () => {
    const half = (value: string): string => createHash('sha256').update(value).digest().subarray(0, 16).toString('base64url');
    const now = new Date();
    const token = await signer.sign({ clientId: 'c', session, accessToken: 'lk_at_x.y', code: 'lk_ac_x.y', withNonce: false, now });
    const { payload } = await jwtVerify(token, publicKey);
    expect(payload['at_hash']).toBe(half('lk_at_x.y'));
    expect(payload['c_hash']).toBe(half('lk_ac_x.y'));
    expect(payload).not.toHaveProperty('nonce');
  });
});
