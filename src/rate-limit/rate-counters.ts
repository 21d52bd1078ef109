import type { ThrottlerStorage } from '@nestjs/throttler';
import type { StorageRecord } from './memory-throttler-storage.js';

export const BURST_WINDOW_MS = 1000;
export const SUSTAINED_WINDOW_MS = 60_000;

/** One window of a bucket's counters, derived once, when the bucket is compiled. */
export interface CounterWindow {
  /** The bucket's counter key and the window's name: the storage keeps the window under both. */
  readonly counterKey: string;
  readonly name: 'burst' | 'sustained';
  /** `{counterKey}:burst` or `…:sustained`: the in-memory window's key. */
  readonly key: string;
  readonly limit: number;
  /** The window's length, and how long a request over the limit blocks the bucket. */
  readonly ms: number;
}

export function counterWindow(counterKey: string, name: 'burst' | 'sustained', limit: number): CounterWindow {
  return { counterKey, name, key: `${counterKey}:${name}`, limit, ms: name === 'burst' ? BURST_WINDOW_MS : SUSTAINED_WINDOW_MS };
}

/** The two windows every bucket counts a request against. */
export interface CountedBucket {
  readonly burst: CounterWindow;
  readonly sustained: CounterWindow;
}

export interface WindowCounts {
  readonly burst: StorageRecord;
  readonly sustained: StorageRecord;
}

/**
 * Counts a request against both windows of its bucket. The in-memory store answers synchronously, so
 * the limiter's hook needs no promise for it; Redis answers both windows in one round trip.
 */
export interface RateCounters {
  count(bucket: CountedBucket): WindowCounts | Promise<WindowCounts>;
}

/**
 * Several instances: both windows counted through a `ThrottlerStorage` shared by every instance of
 * the project (`@nest-lab/throttler-storage-redis`). The two increments leave together: ioredis'
 * auto-pipelining sends them in one round trip.
 */
export class StorageRateCounters implements RateCounters {
  constructor(private readonly storage: ThrottlerStorage) {}

  async count({ burst, sustained }: CountedBucket): Promise<WindowCounts> {
    const [burstRecord, sustainedRecord] = await Promise.all([this.increment(burst), this.increment(sustained)]);
    return { burst: burstRecord, sustained: sustainedRecord };
  }

  private increment(window: CounterWindow): Promise<StorageRecord> {
    return this.storage.increment(window.counterKey, window.ms, window.limit, window.ms, window.name);
  }
}
