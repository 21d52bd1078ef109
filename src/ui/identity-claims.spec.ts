import { describe, expect, it } from 'vitest';
import { DEFAULT_CLAIMS_MAPPING, effectiveClaimsMapping } from '../common/oidc/standard-claims.js';
import { claimsByScope, claimsForScopes } from './identity-claims.js';

const updatedAt = new Date('2026-01-01T00:00:00Z');

describe('claims from identity traits', () => {
  it('maps the built-in schema: e-mail, verified flag from the address, name composed from first and last', () => {
    const claims = claimsByScope(
      {
        traits: { email: 'Ada@Example.com', name: { first: 'Ada', last: 'Lovelace' } },
        verifiableAddresses: [{ value: 'ada@example.com', verified: true }],
        updatedAt,
      },
      DEFAULT_CLAIMS_MAPPING,
    );
    expect(claims).toEqual({
      email: { email: 'Ada@Example.com', email_verified: true },
      profile: { name: 'Ada Lovelace', given_name: 'Ada', family_name: 'Lovelace', updated_at: 1767225600 },
    });
  });

  it('an unverified address gives email_verified false; empty traits are left out', () => {
    const claims = claimsByScope(
      {
        traits: { email: 'x@example.com', name: { first: '' } },
        verifiableAddresses: [{ value: 'x@example.com', verified: false }],
        updatedAt,
      },
      DEFAULT_CLAIMS_MAPPING,
    );
    expect(claims['email']).toEqual({ email: 'x@example.com', email_verified: false });
    expect(claims['profile']).toEqual({ updated_at: 1767225600 });
  });

  it('OIDC_CLAIMS_MAPPING overrides a path and withholds a claim', () => {
    const mapping = effectiveClaimsMapping({ name: 'display', given_name: null, preferred_username: 'handle' });
    const claims = claimsByScope(
      { traits: { display: 'The Countess', handle: 'ada', name: { first: 'Ada' } }, verifiableAddresses: [], updatedAt },
      mapping,
    );
    expect(claims['profile']).toEqual({ name: 'The Countess', preferred_username: 'ada', updated_at: 1767225600 });
    expect(claims).not.toHaveProperty('email');
  });

  it('does not walk prototypes or arrays', () => {
    const claims = claimsByScope(
      { traits: { list: ['a'] }, verifiableAddresses: [], updatedAt },
      { nickname: 'constructor', locale: 'list.0', gender: '__proto__.x' },
    );
    expect(claims['profile']).toEqual({ updated_at: 1767225600 });
  });
});

describe('claims for granted scopes', () => {
  const byScope = { email: { email: 'a@b.c', email_verified: true }, profile: { name: 'A', sub: 'forged' } };

  it('merges the groups of granted standard scopes only, and only their standard claims', () => {
    expect(claimsForScopes(byScope, ['openid', 'email'])).toEqual({ email: 'a@b.c', email_verified: true });
    expect(claimsForScopes(byScope, ['openid', 'profile', 'email'])).toEqual({ email: 'a@b.c', email_verified: true, name: 'A' });
    expect(claimsForScopes(byScope, ['openid'])).toEqual({});
  });

  it('ignores malformed contexts', () => {
    expect(claimsForScopes(undefined, ['email'])).toEqual({});
    expect(claimsForScopes({ email: ['x'] }, ['email'])).toEqual({});
    expect(claimsForScopes({ constructor: { name: 'x' } }, ['constructor'])).toEqual({});
  });
});
