import { Injectable } from '@nestjs/common';
import type { StoredAccessToken } from './stored-token.js';
import { TokensRepository } from './tokens.repository.js';

/** Most rows in one INSERT: keeps each statement's parameter and WAL record small. */
const MAX_BATCH = 256;
/**
 * INSERTs in flight at once. The second one starts only when a full batch is waiting: below that, the
 * next batch keeps gathering while one INSERT runs, because a statement's fixed cost (round trip,
 * commit and WAL flush, about as much PostgreSQL CPU as 15 rows) is most of what a small batch costs.
 */
const MAX_IN_FLIGHT = 2;

interface Pending {
  readonly token: StoredAccessToken;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Stores client_credentials access tokens, the one write on the busiest path, by group commit: the
 * tokens waiting when an INSERT can start (at the end of the event-loop turn, or when the previous
 * INSERT returns) go to the database in one multi-row INSERT, and each request answers only once its
 * row is committed (nothing is acknowledged before it is durable). While an INSERT runs, the next batch
 * gathers (a second INSERT starts only once a full batch waits), so batches grow with the load and the
 * database's latency. Under load this turns one round trip and one statement per token into one per batch.
 * If a batch fails (e.g. a client was deleted meanwhile and its row breaks the foreign key), its rows
 * are retried one by one, so one bad row fails only its own request.
 */
@Injectable()
export class AccessTokenBatchWriter {
  private pending: Pending[] = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(private readonly repository: TokensRepository) {}

  write(token: StoredAccessToken): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ token, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || !this.mayStart()) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private mayStart(): boolean {
    if (this.pending.length === 0 || this.inFlight >= MAX_IN_FLIGHT) return false;
    return this.inFlight === 0 || this.pending.length >= MAX_BATCH;
  }

  private flush(): void {
    this.scheduled = false;
    while (this.mayStart()) {
      const batch = this.pending.splice(0, MAX_BATCH);
      this.inFlight += 1;
      void this.insert(batch).finally(() => {
        this.inFlight -= 1;
        this.schedule();
      });
    }
  }

  private async insert(batch: readonly Pending[]): Promise<void> {
    try {
      await this.repository.insertAccessTokens(batch.map((entry) => entry.token));
      for (const entry of batch) entry.resolve();
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      await Promise.all(batch.map((entry) => this.insert([entry])));
    }
  }
}
