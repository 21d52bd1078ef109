import { describe, expect, it } from 'vitest';
import { MemoryThrottlerStorage } from './memory-throttler-storage.js';

describe('MemoryThrottlerStorage', () => {
  it('counts a fixed window from its first hit, blocks past the limit for the block duration, then starts again', () => {
    let now = 1_000_000;
    const storage = new MemoryThrottlerStorage(() => now);
    try {
      expect(storage.hit('k', 1000, 2, 1000)).toMatchObject({ totalHits: 1, isBlocked: false, timeToExpire: 1 });
      now += 400;
      expect(storage.hit('k', 1000, 2, 1000)).toMatchObject({ totalHits: 2, isBlocked: false });
      expect(storage.hit('k', 1000, 2, 1000)).toMatchObject({ totalHits: 3, isBlocked: true, timeToBlockExpire: 1 });
      // The window ends 1 s after its first hit and a new one starts with this (still refused) hit;
      // the block ends 1 s after the refusal.
      now += 700;
      expect(storage.hit('k', 1000, 2, 1000)).toMatchObject({ totalHits: 1, isBlocked: true });
      now += 400;
      expect(storage.hit('k', 1000, 2, 1000)).toMatchObject({ totalHits: 2, isBlocked: false });
      expect(storage.hit('k', 1000, 2, 1000)).toMatchObject({ totalHits: 3, isBlocked: true });
    } finally {
      storage.close();
    }
  });

  it('keeps windows of different names and keys apart', async () => {
    const storage = new MemoryThrottlerStorage();
    try {
      await storage.increment('a', 1000, 1, 1000, 'burst');
      expect((await storage.increment('a', 60_000, 1, 60_000, 'sustained')).isBlocked).toBe(false);
      expect((await storage.increment('b', 1000, 1, 1000, 'burst')).isBlocked).toBe(false);
      expect((await storage.increment('a', 1000, 1, 1000, 'burst')).isBlocked).toBe(true);
    } finally {
      storage.close();
    }
  });
});
