import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.js';

function cache(maxEntries = 3): { cache: TtlCache<string, number>; advance: (ms: number) => void } {
  let now = 1_000;
  return { cache: new TtlCache<string, number>({ ttlMs: 100, maxEntries, now: () => now }), advance: (ms) => (now += ms) };
}

describe('TtlCache', () => {
  it('returns a value until its TTL runs out', () => {
    const { cache: c, advance } = cache();
    c.set('a', 1);
    advance(99);
    expect(c.get('a')).toBe(1);
    advance(1);
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('drops the oldest entry when full', () => {
    const { cache: c } = cache(2);
    c.set('a', 1);
    c.set('b', 2);
    c.set('c', 3);
    expect(c.get('a')).toBeUndefined();
    expect(c.get('b')).toBe(2);
    expect(c.get('c')).toBe(3);
  });

  it('keeps a recently read entry and drops the least recently used one instead', () => {
    const { cache: c } = cache(2);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1);
    c.set('c', 3);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe(1);
    expect(c.get('c')).toBe(3);
    expect(c.size).toBe(2);
  });

  it('gives every entry read since the last eviction one second chance, then drops the oldest', () => {
    const { cache: c } = cache(3);
    c.set('a', 1);
    c.set('b', 2);
    c.set('c', 3);
    for (const key of ['a', 'b', 'c']) expect(c.get(key)).toBeDefined();
    c.set('d', 4);
    // All three were read: each is passed over once, then the oldest of them goes.
    expect(c.size).toBe(3);
    expect(c.get('a')).toBeUndefined();
    expect([c.get('b'), c.get('c'), c.get('d')]).toEqual([2, 3, 4]);
    // b, c and d were read again; e pushes out b, the oldest.
    c.set('e', 5);
    expect(c.get('b')).toBeUndefined();
    expect([c.get('c'), c.get('d'), c.get('e')]).toEqual([3, 4, 5]);
  });

  it('keeps nothing with maxEntries 0', () => {
    const { cache: c } = cache(0);
    c.set('a', 1);
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('does not store a value read before an invalidation', () => {
    const { cache: c } = cache();
    const generation = c.generation();
    c.delete('other');
    c.set('a', 1, generation);
    expect(c.get('a')).toBeUndefined();
    c.set('a', 2, c.generation());
    expect(c.get('a')).toBe(2);
  });

  it('forgets one key or everything', () => {
    const { cache: c } = cache();
    c.set('a', 1);
    c.set('b', 2);
    c.delete('a');
    expect(c.get('a')).toBeUndefined();
    expect(c.get('b')).toBe(2);
    c.clear();
    expect(c.get('b')).toBeUndefined();
  });
});
