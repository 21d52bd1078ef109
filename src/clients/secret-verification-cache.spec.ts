import { describe, expect, it } from 'vitest';
import { SecretVerificationCache } from './secret-verification-cache.js';

function cache(): { cache: SecretVerificationCache; advance: (ms: number) => void } {
  let now = 0;
  return {
    cache: new SecretVerificationCache('system-secret-0123456789', { ttlMs: 1000, maxEntries: 2, now: () => now }),
    advance: (ms) => (now += ms),
  };
}

describe('SecretVerificationCache', () => {
  it('remembers a verified secret for its client only, and only that secret', () => {
    const { cache: c } = cache();
    c.remember('a', 'secret-a', c.generation());
    expect(c.has('a', 'secret-a')).toBe(true);
    expect(c.has('a', 'secret-b')).toBe(false);
    expect(c.has('b', 'secret-a')).toBe(false);
  });

  it('does not confuse client_id and secret boundaries', () => {
    const { cache: c } = cache();
    c.remember('ab', 'c-secret', c.generation());
    expect(c.has('a', 'bc-secret')).toBe(false);
  });

  it('expires after the TTL', () => {
    const { cache: c, advance } = cache();
    c.remember('a', 'secret-a', c.generation());
    advance(1000);
    expect(c.has('a', 'secret-a')).toBe(false);
  });

  it('forgets a client on change, and does not remember a check that raced with a change', () => {
    const { cache: c } = cache();
    c.remember('a', 'secret-a', c.generation());
    c.remember('b', 'secret-b', c.generation());
    c.forget('a');
    expect(c.has('a', 'secret-a')).toBe(false);
    expect(c.has('b', 'secret-b')).toBe(true);
    const before = c.generation();
    c.forget('a');
    c.remember('a', 'old-secret', before);
    expect(c.has('a', 'old-secret')).toBe(false);
  });

  it('is bounded', () => {
    const { cache: c } = cache();
    for (const id of ['a', 'b', 'c']) c.remember(id, `secret-${id}`, c.generation());
    expect(c.has('a', 'secret-a')).toBe(false);
    expect(c.has('c', 'secret-c')).toBe(true);
  });

  it('keeps no clear secret', () => {
    const { cache: c } = cache();
    c.remember('a', 'recognisable-secret', c.generation());
    expect(JSON.stringify(c, (_key, value: unknown) => (value instanceof Map ? [...value.entries()] : value))).not.toContain(
      'recognisable-secret',
    );
  });
});
