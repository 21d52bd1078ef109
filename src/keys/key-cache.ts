import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ChangeNotifier, type Announce } from '../database/change-notifier.js';
import { PUBLISHED_SETS } from './key-sets.js';

/** ChangeNotifier topic of key changes; the key is the set name. */
export const KEYS_TOPIC = 'keys';
const ALL = '*';

/**
 * The in-process caches of the keys context: per set (signing key, verification keys) and the
 * pre-serialised public JWKS. Values are promises, so concurrent misses share one load. Any change to
 * a set, on this instance or another (ChangeNotifier), drops what was cached for it; a load that was
 * running at that moment still answers the callers that were waiting, but is not kept.
 */
@Injectable()
export class KeyCache implements OnModuleInit {
  /** set → kind (e.g. `signing`) → value. */
  private readonly perSet = new Map<string, Map<string, Promise<unknown>>>();
  private jwks: Promise<unknown> | undefined;

  constructor(private readonly notifier: ChangeNotifier) {}

  onModuleInit(): void {
    this.notifier.subscribe(KEYS_TOPIC, (set) => this.invalidate(set));
  }

  /** Announces a change of `set`, inside its write's transaction, to every instance, this one first. */
  changed(set: string): Announce {
    return (transaction) => this.notifier.publishWithin(transaction, KEYS_TOPIC, set);
  }

  forSet<T>(kind: string, set: string, load: () => Promise<T>): Promise<T> {
    const entries = this.perSet.get(set) ?? new Map<string, Promise<unknown>>();
    const cached = entries.get(kind);
    if (cached !== undefined) return cached as Promise<T>;
    const loading = load();
    entries.set(kind, loading);
    this.perSet.set(set, entries);
    loading.catch(() => {
      if (entries.get(kind) === loading) entries.delete(kind);
    });
    return loading;
  }

  publicJwks<T>(load: () => Promise<T>): Promise<T> {
    if (this.jwks !== undefined) return this.jwks as Promise<T>;
    const loading = load();
    this.jwks = loading;
    loading.catch(() => {
      if (this.jwks === loading) this.jwks = undefined;
    });
    return loading;
  }

  private invalidate(set: string): void {
    if (set === ALL) {
      this.perSet.clear();
      this.jwks = undefined;
      return;
    }
    this.perSet.delete(set);
    if (PUBLISHED_SETS.includes(set)) this.jwks = undefined;
  }
}
