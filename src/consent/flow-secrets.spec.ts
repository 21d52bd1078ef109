import { describe, expect, it } from 'vitest';
import { digestOf, matchesDigest, newFlowSecret } from './flow-secrets.js';

describe('flow secrets', () => {
  it('are 256 random bits in base64url, never repeated', () => {
    const secrets = new Set(Array.from({ length: 1000 }, () => newFlowSecret()));
    expect(secrets.size).toBe(1000);
    for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('are stored as SHA-256 hex, and only the right value matches its digest', () => {
    const secret = newFlowSecret();
    const digest = digestOf(secret);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digest).not.toContain(secret);
    expect(matchesDigest(secret, digest)).toBe(true);
    expect(matchesDigest(newFlowSecret(), digest)).toBe(false);
    expect(matchesDigest(undefined, digest)).toBe(false);
    expect(matchesDigest('', digest)).toBe(false);
  });
});
