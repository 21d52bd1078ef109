import { describe, expect, it } from 'vitest';
import { scopeAllowed, scopesCovered } from './scope-strategy.js';

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
    expect(scopeAllowed('wildcard', granted, scope)).toBe(expected);
  });
});

describe('scopeAllowed, exact', () => {
  it('needs the very string', () => {
    expect(scopeAllowed('exact', ['photos.*'], 'photos.read')).toBe(false);
    expect(scopeAllowed('exact', ['photos.read'], 'photos.read')).toBe(true);
  });
});

describe('scopesCovered', () => {
  it('needs every requested scope; nothing requested is always covered', () => {
    expect(scopesCovered('wildcard', ['openid', 'photos.*'], ['openid', 'photos.read'])).toBe(true);
    expect(scopesCovered('wildcard', ['openid'], ['openid', 'photos.read'])).toBe(false);
    expect(scopesCovered('exact', [], [])).toBe(true);
  });
});
