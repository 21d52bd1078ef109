export interface LruCacheOptions {
  /** Entries kept; 0 keeps nothing. */
  readonly capacity: number;
  /** How long an entry may be served after it was stored. */
  readonly maxAgeMs: number;
  /** The clock, for tests. */
  readonly now?: () => number;
}

/**
 * A bounded least-recently-used map whose entries also expire. `generation()` and the guarded `set`
 * close the read-then-fill race: a value computed from data read before a `clear()` is not stored
 * after it.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { readonly value: V; readonly expiresAt: number }>();
  private readonly now: () => number;
  private clears = 0;

  constructor(private readonly options: LruCacheOptions) {
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

  /** A token to pass to `set` when the value is about to be computed from the source of truth. */
  generation(): number {
    return this.clears;
  }

  /** Stores the value, unless the cache was cleared since `generation` was taken. */
  set(key: K, value: V, generation = this.clears): void {
    if (generation !== this.clears || this.options.capacity === 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.options.maxAgeMs });
    if (this.entries.size > this.options.capacity) this.entries.delete(this.entries.keys().next().value as K);
  }

  clear(): void {
    this.clears += 1;
    this.entries.clear();
  }
}
