import { describe, expect, it } from 'vitest';
import { LruCache } from './lru-cache.js';

describe('LruCache', () => {
  it('drops the least recently used entry past its capacity', () => {
    const cache = new LruCache<string, number>({ capacity: 2, maxAgeMs: 1000 });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('does not store a value computed before a clear', () => {
    const cache = new LruCache<string, boolean>({ capacity: 10, maxAgeMs: 1000 });
    const generation = cache.generation();
    cache.clear();
    cache.set('k', true, generation);
    expect(cache.get('k')).toBeUndefined();
    cache.set('k', false, cache.generation());
    expect(cache.get('k')).toBe(false);
  });

  it('forgets entries older than their maximum age', () => {
    let now = 0;
    const cache = new LruCache<string, boolean>({ capacity: 10, maxAgeMs: 100, now: () => now });
    cache.set('k', true);
    now = 99;
    expect(cache.get('k')).toBe(true);
    now = 100;
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps nothing with capacity 0', () => {
    const cache = new LruCache<string, boolean>({ capacity: 0, maxAgeMs: 1000 });
    cache.set('k', true);
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
