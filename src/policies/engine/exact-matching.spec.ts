import { describe, expect, it } from 'vitest';
import { aPolicy, aRequest, anIndex } from '../../../test/support/acp-builders.js';

describe('exact flavor: case-sensitive equality', () => {
  const index = anIndex('exact', [aPolicy({ subjects: ['users:alice'], resources: ['articles:<.*>', 'articles:*'], actions: ['read'] })]);

  it('allows only the very strings of the policy', () => {
    expect(index.isAllowed(aRequest('users:alice', 'articles:<.*>', 'read'))).toBe(true);
    expect(index.isAllowed(aRequest('users:alice', 'articles:*', 'read'))).toBe(true);
  });

  it('treats regex and glob syntax as text', () => {
    expect(index.isAllowed(aRequest('users:alice', 'articles:1', 'read'))).toBe(false);
  });

  it('is case-sensitive and does not match prefixes or suffixes', () => {
    expect(index.isAllowed(aRequest('Users:alice', 'articles:*', 'read'))).toBe(false);
    expect(index.isAllowed(aRequest('users:alic', 'articles:*', 'read'))).toBe(false);
    expect(index.isAllowed(aRequest('users:alice2', 'articles:*', 'read'))).toBe(false);
    expect(index.isAllowed(aRequest('users:alice', 'articles:*', 'READ'))).toBe(false);
  });

  it('denies when nothing matches at all, and on an empty index', () => {
    expect(index.isAllowed(aRequest('', '', ''))).toBe(false);
    expect(anIndex('exact', []).isAllowed(aRequest('users:alice', 'articles:*', 'read'))).toBe(false);
  });
});
