import { Injectable, type OnModuleInit } from '@nestjs/common';
import { TtlCache } from '../../common/cache/ttl-cache.js';
import type { SelfServiceConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { ChangeNotifier, type Announce } from '../../database/change-notifier.js';
import { IDENTITIES_CHANGED_TOPIC } from '../../identities/index.js';

/** ChangeNotifier topic of session changes (key = token hash, or `*`). */
export const SESSIONS_CHANGED_TOPIC = 'self-service.sessions';

/** A whoami answer, serialized once. */
export interface CachedWhoami {
  readonly body: string;
  readonly identityId: string;
  /** The session's `expires_at` (ms): never answered from the cache past it. */
  readonly expiresAtMs: number;
}

const MAX_ENTRIES = 100_000;

/**
 * The in-process cache of `GET /sessions/whoami`, keyed by token hash, for SESSION_CACHE_TTL. Every
 * instance drops an entry when its session is revoked or re-authenticated (topic
 * `self-service.sessions`), and everything when any identity changes or is deleted (topic
 * `identities`: identity changes are rare next to whoami calls, and a session's identity is not indexed
 * here). Negative answers are not cached, so an unknown token never fills it.
 */
@Injectable()
export class SessionCache implements OnModuleInit {
  private readonly cache: TtlCache<string, CachedWhoami>;

  constructor(
    @InjectConfig('selfService') selfService: SelfServiceConfig,
    private readonly notifier: ChangeNotifier,
  ) {
    const ttlMs = selfService.sessionCacheTtl * 1000;
    this.cache = new TtlCache({ ttlMs, maxEntries: ttlMs === 0 ? 0 : MAX_ENTRIES });
  }

  onModuleInit(): void {
    this.notifier.subscribe(SESSIONS_CHANGED_TOPIC, (key) => (key === '*' ? this.cache.clear() : this.cache.delete(key)));
    this.notifier.subscribe(IDENTITIES_CHANGED_TOPIC, () => this.cache.clear());
  }

  get(tokenHash: string, nowMs: number): CachedWhoami | undefined {
    const entry = this.cache.get(tokenHash);
    return entry !== undefined && entry.expiresAtMs > nowMs ? entry : undefined;
  }

  /** Pass the `generation()` taken before reading the database, so a stale read is not stored. */
  generation(): number {
    return this.cache.generation();
  }

  set(tokenHash: string, entry: CachedWhoami, generation: number): void {
    this.cache.set(tokenHash, entry, generation);
  }

  /** Announces a session change, inside its write's transaction, to every instance (this one included). */
  changed(tokenHash: string): Announce {
    return (transaction) => this.notifier.publishWithin(transaction, SESSIONS_CHANGED_TOPIC, tokenHash);
  }
}
