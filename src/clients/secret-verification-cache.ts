import { createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { TtlCache } from '../common/cache/ttl-cache.js';
import { hmacSha256 } from '../common/crypto/digest.js';

export interface SecretVerificationCacheOptions {
  readonly ttlMs: number;
  readonly maxEntries: number;
  readonly now?: () => number;
}

/**
 * Remembers successful client-secret checks for a short while, so the token endpoint does not pay a
 * PBKDF2 run (~5 ms of CPU) per request. Each client has at most one entry: the HMAC-SHA256, under the
 * system secret, of `client_id \0 secret` that last verified. The clear secret is never kept, and the
 * digest is useless without the system secret. Failures are never remembered. Entries of a client go
 * as soon as the client changes (`forget`), on this instance and, through ChangeNotifier, on the others.
 */
export class SecretVerificationCache {
  private readonly entries: TtlCache<string, Buffer>;
  /** Imported once: an HMAC with a KeyObject skips converting the key on every check. */
  private readonly key: KeyObject;

  constructor(key: string, options: SecretVerificationCacheOptions) {
    this.key = createSecretKey(Buffer.from(key, 'utf8'));
    this.entries = new TtlCache(options);
  }

  /** True when this exact secret verified for this client within the TTL and nothing changed since. */
  has(clientId: string, secret: string): boolean {
    const remembered = this.entries.get(clientId);
    return remembered !== undefined && timingSafeEqual(remembered, this.digest(clientId, secret));
  }

  /** Take before reading the stored hash; pass to `remember` so a change in between is not overwritten. */
  generation(): number {
    return this.entries.generation();
  }

  remember(clientId: string, secret: string, generation: number): void {
    this.entries.set(clientId, this.digest(clientId, secret), generation);
  }

  forget(clientId: string): void {
    this.entries.delete(clientId);
  }

  clear(): void {
    this.entries.clear();
  }

  private digest(clientId: string, secret: string): Buffer {
    return hmacSha256(this.key, `${clientId}\0${secret}`);
  }
}
