import { describe, expect, it } from 'vitest';
import type { PublicJwk } from './jwk.js';
import { toPublicJwk } from './keys.mapper.js';

const PRIVATE = {
  d: 'AQAB',
  p: 'AQAB',
  q: 'AQAB',
  dp: 'AQAB',
  dq: 'AQAB',
  qi: 'AQAB',
  oth: [{ r: 'AQAB', d: 'AQAB', t: 'AQAB' }],
  k: 'AQAB',
};

describe('toPublicJwk', () => {
  it.each([
    ['RSA', { kid: 'rsa', kty: 'RSA', alg: 'RS256', n: 'AQAB', e: 'AQAB' }],
    ['EC', { kid: 'ec', kty: 'EC', alg: 'ES256', crv: 'P-256', x: 'AQAB', y: 'AQAB' }],
    ['OKP', { kid: 'okp', kty: 'OKP', alg: 'EdDSA', crv: 'Ed25519', x: 'AQAB' }],
    ['oct', { kid: 'oct', kty: 'oct', alg: 'HS256' }],
  ] as const)('drops every private member of a stored %s key, whatever the stored object holds', (_kty, jwk) => {
    const stored = { ...jwk, use: 'sig', ...PRIVATE } as unknown as PublicJwk;
    const exported = toPublicJwk(stored) as unknown as Record<string, unknown>;
    for (const member of Object.keys(PRIVATE)) expect(exported, member).not.toHaveProperty(member);
    expect(exported).toEqual({ ...jwk, use: 'sig' });
  });
});
