import { decodeProtectedHeader, generateKeyPair, jwtVerify, type CryptoKey } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KeysService } from '../../keys/index.js';
import { BACKCHANNEL_LOGOUT_EVENT, LOGOUT_TOKEN_TTL_SECONDS, LogoutTokenSigner } from './logout-token.signer.js';

const ISSUER = 'https://id.example.com';
let signer: LogoutTokenSigner;
let publicKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  publicKey = pair.publicKey;
  const keys = { signingKey: async () => ({ kid: 'k1', alg: 'ES256', key: pair.privateKey }) } as unknown as KeysService;
  signer = new LogoutTokenSigner(keys, { issuer: ISSUER, issuerIdentifier: ISSUER, admin: '' });
});

describe('LogoutTokenSigner', () => {
  it('signs the Back-Channel Logout §2.4 claims, typed logout+jwt, with the kid and without a nonce', async () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const token = await signer.sign({ clientId: 'client-1', subject: 'pairwise-sub', sid: 'session-1', now });
    const { payload } = await jwtVerify(token, publicKey, { issuer: ISSUER, audience: 'client-1', currentDate: now, typ: 'logout+jwt' });
    expect(payload).toEqual({
      iss: ISSUER,
      sub: 'pairwise-sub',
      aud: 'client-1',
      iat: 1_767_225_600,
      exp: 1_767_225_600 + LOGOUT_TOKEN_TTL_SECONDS,
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
      events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
      sid: 'session-1',
    });
    expect(payload).not.toHaveProperty('nonce');
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid: 'k1', typ: 'logout+jwt' });
    expect(LOGOUT_TOKEN_TTL_SECONDS).toBeLessThanOrEqual(120);
  });

  it('gives every token its own jti', async () => {
    const input = { clientId: 'c', subject: 's', sid: 'sid', now: new Date() };
    const [first, second] = await Promise.all([signer.sign(input), signer.sign(input)]);
    const jti = async (token: string) => (await jwtVerify(token, publicKey)).payload.jti;
    expect(await jti(first)).not.toBe(await jti(second));
  });
});
