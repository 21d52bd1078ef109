import { describe, expect, it } from 'vitest';
import { scopeAllowed, scopesCovered, type ScopeRules } from './scope-strategy.js';

const WILDCARD: ScopeRules = { scopeStrategy: 'wildcard', privilegedScopes: ['latchkey.admin'] };
const EXACT: ScopeRules = { scopeStrategy: 'exact', privilegedScopes: ['latchkey.admin'] };

describe('scopeAllowed, wildcard (fosite WildcardScopeStrategy)', () => {
  it.each([
    [['openid'], 'openid', true],
    [['openid'], 'email', false],
    [['photos.*'], 'photos.read', true],
    [['photos.*'], 'photos.read.all', true],
    [['photos.*'], 'photos', false],
    [['photos.*'], 'photos.', false],
    [['photos.read'], 'photos.read.all', false],
    [['photos.read.all'], 'photos.read', false],
    [['*'], 'anything', true],
    [['a.*.c'], 'a.b.c', true],
    [['a.*.c'], 'a.b.d', false],
    [['a.*.c'], 'a..c', false],
  ] as const)('%j allows %s: %s', (granted, scope, expected) => {
    expect(scopeAllowed(WILDCARD, granted, scope)).toBe(expected);
  });
});

describe('scopeAllowed, exact', () => {
  it('needs the very string', () => {
    expect(scopeAllowed(EXACT, ['photos.*'], 'photos.read')).toBe(false);
    expect(scopeAllowed(EXACT, ['photos.read'], 'photos.read')).toBe(true);
  });
});

describe('scopeAllowed, privileged scopes', () => {
  it.each([
    [['*'], 'latchkey.admin'],
    [['latchkey.*'], 'latchkey.admin'],
    [['*.admin'], 'latchkey.admin'],
    [['*.*'], 'latchkey.admin'],
  ] as const)('%j does not allow %s: only the literal scope does', (granted, scope) => {
    expect(scopeAllowed(WILDCARD, granted, scope)).toBe(false);
    expect(scopeAllowed(WILDCARD, [...granted, scope], scope)).toBe(true);
    expect(scopeAllowed(EXACT, [scope], scope)).toBe(true);
  });

  it('a wildcard still reaches the ordinary scopes beside them', () => {
    expect(scopeAllowed(WILDCARD, ['latchkey.*'], 'latchkey.read')).toBe(true);
  });
});

describe('scopesCovered', () => {
  it('needs every requested scope; nothing requested is always covered', () => {
    expect(scopesCovered(WILDCARD, ['openid', 'photos.*'], ['openid', 'photos.read'])).toBe(true);
    expect(scopesCovered(WILDCARD, ['openid'], ['openid', 'photos.read'])).toBe(false);
    expect(scopesCovered(EXACT, [], [])).toBe(true);
  });
});
