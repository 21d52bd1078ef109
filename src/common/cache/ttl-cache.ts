export interface TtlCacheOptions {
  readonly ttlMs: number;
  /** Past this many entries the least recently used is dropped; 0 keeps nothing. */
  readonly maxEntries: number;
  /** The clock, for tests. */
  readonly now?: () => number;
}

/**
 * A small in-process cache: entries expire `ttlMs` after they were stored, the least recently used go
 * first when full. `generation()` and the guarded `set` close the read-then-fill race: a value read from the
 * database before an invalidation is not stored after it.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();
  private readonly now: () => number;
  private invalidations = 0;

  constructor(private readonly options: TtlCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) return undefined;
    // Map keeps insertion order: re-inserting makes this the most recently used entry.
    this.entries.set(key, entry);
    return entry.value;
  }

  /** A token to pass to `set` when the value is about to be read from the source of truth. */
  generation(): number {
    return this.invalidations;
  }

  /** Stores the value, unless something was invalidated since `generation` was taken. */
  set(key: K, value: V, generation = this.invalidations): void {
    if (generation !== this.invalidations || this.options.maxEntries === 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.options.ttlMs });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.invalidations += 1;
    this.entries.delete(key);
  }

  clear(): void {
    this.invalidations += 1;
    this.entries.clear();
  }
}
