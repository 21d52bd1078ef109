import type { ThrottlerStorage } from '@nestjs/throttler';
import type { CountedBucket, RateCounters, WindowCounts } from './rate-counters.js';

interface Window {
  hits: number;
  expiresAt: number;
  blockedUntil: number;
}

/** How often windows that have ended are dropped. */
const SWEEP_INTERVAL_MS = 60_000;

/** What an increment reports (the package's record type is not exported from its entry point). */
export type StorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * `@nestjs/throttler`'s storage contract for one instance, counting as the Redis storage's script does
 * (fixed windows that start at their first hit, every hit counted, blocked for `blockDuration` once
 * over the limit), so one instance and several behave alike. The package's own in-memory storage
 * keeps a timestamp per hit and filters them on each increment: at the Enterprise limits that is tens
 * of thousands of entries walked per request; this keeps two numbers per window.
 */
export class MemoryThrottlerStorage implements ThrottlerStorage, RateCounters {
  private readonly windows = new Map<string, Window>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<StorageRecord> {
    return Promise.resolve(this.hit(`${key}:${throttlerName}`, ttl, limit, blockDuration));
  }

  count({ burst, sustained }: CountedBucket): WindowCounts {
    return {
      burst: this.hit(burst.key, burst.ms, burst.limit, burst.ms),
      sustained: this.hit(sustained.key, sustained.ms, sustained.limit, sustained.ms),
    };
  }

  /** The synchronous body of `increment`. */
  hit(windowKey: string, ttl: number, limit: number, blockDuration: number): StorageRecord {
    const now = this.now();
    let window = this.windows.get(windowKey);
    if (window === undefined || (window.expiresAt <= now && window.blockedUntil <= now)) {
      window = { hits: 0, expiresAt: now + ttl, blockedUntil: 0 };
      this.windows.set(windowKey, window);
    } else if (window.expiresAt <= now) {
      window.hits = 0;
      window.expiresAt = now + ttl;
    }
    window.hits += 1;
    if (window.blockedUntil <= now && window.hits > limit) window.blockedUntil = now + blockDuration;
    const blocked = window.blockedUntil > now;
    return {
      totalHits: window.hits,
      timeToExpire: Math.ceil((window.expiresAt - now) / 1000),
      isBlocked: blocked,
      timeToBlockExpire: blocked ? Math.ceil((window.blockedUntil - now) / 1000) : 0,
    };
  }

  close(): void {
    clearInterval(this.sweeper);
    this.windows.clear();
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, window] of this.windows) {
      if (window.expiresAt <= now && window.blockedUntil <= now) this.windows.delete(key);
    }
  }
}
