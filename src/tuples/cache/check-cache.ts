import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { TuplesConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { ChangeNotifier, type Announce } from '../../database/change-notifier.js';
import { TtlCache } from '../../common/cache/ttl-cache.js';

/** The ChangeNotifier topic of relation-tuple writes. */
export const TUPLES_CHANGED = 'relation-tuples';

/**
 * A safety net, not the invalidation: should a notification be lost (the writing instance's
 * listening connection was down at that moment, so it could not announce), no answer outlives this.
 */
export const MAX_ANSWER_AGE_MS = 10_000;

/**
 * Check results of this process (TUPLES_CACHE_SIZE entries, least recently used go first). Any
 * committed write drops the whole cache on every instance: a write can change the answer of checks
 * far away in the graph, and telling which is dearer than refilling. The drop reaches this instance
 * before the write is acknowledged, and the other instances through PostgreSQL NOTIFY (plus a full
 * drop whenever their listening connection was lost and comes back). Answers also expire after
 * MAX_ANSWER_AGE_MS, which bounds the staleness should an announcement be lost.
 */
@Injectable()
export class CheckCache implements OnModuleInit {
  private readonly results: TtlCache<string, boolean>;

  constructor(
    @InjectConfig('tuples') tuples: TuplesConfig,
    private readonly notifier: ChangeNotifier,
  ) {
    this.results = new TtlCache({ maxEntries: tuples.cacheSize, ttlMs: MAX_ANSWER_AGE_MS });
  }

  onModuleInit(): void {
    this.notifier.subscribe(TUPLES_CHANGED, () => this.results.clear());
  }

  get(key: string): boolean | undefined {
    return this.results.get(key);
  }

  generation(): number {
    return this.results.generation();
  }

  set(key: string, allowed: boolean, generation: number): void {
    this.results.set(key, allowed, generation);
  }

  /** Runs inside a write's transaction: drops this cache at once, and the other instances' on commit. */
  readonly invalidate: Announce = (transaction) => this.notifier.publishWithin(transaction, TUPLES_CHANGED, '*');
}
