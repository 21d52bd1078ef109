import { Injectable } from '@nestjs/common';
import type { IdentitiesConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';

/**
 * Runs password hashing and verification (argon2id, bcrypt) at most IDENTITY_HASHING_CONCURRENCY at a
 * time; the rest wait their turn, first come first served. The native hashers run on libuv's thread
 * pool (UV_THREADPOOL_SIZE, 4 unless set), which jose's signing and verification, DNS lookups and file
 * reads share: with every pool thread hashing, an ID token's signature waits for a hash to end (eight
 * logins in flight pushed ES256 signing from 0.16 ms to ~39 ms on a 2-core box). The
 * default leaves one pool thread to the rest; it also bounds the memory hashing takes (concurrency ×
 * argon2 memory). Hashes are CPU-bound, so fewer at once than threads costs no throughput on a box
 * with fewer cores than pool threads (docs/identities.md, "Hashing").
 */
@Injectable()
export class PasswordHashing {
  private readonly limit: number;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(@InjectConfig('identities') identities: IdentitiesConfig) {
    this.limit = identities.hashingConcurrency;
  }

  /** Runs `work` (one hash or verification) when a slot is free; its result or rejection is passed on. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter (running stays the same), or is freed.
      const next = this.waiting.shift();
      if (next === undefined) this.running -= 1;
      else next();
    }
  }
}
