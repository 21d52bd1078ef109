import { Injectable } from '@nestjs/common';
import { TuplesRepository } from '../tuples.repository.js';
import type { SetCheckRead } from './stored-tuple.js';

/**
 * Most reads in one statement. The cost per read stops falling at about 64 (measured about 25 µs of
 * statement time per read at 64 and at 256 on a million tuples), while every caller of a batch waits
 * for the whole statement: 128 keeps a full batch near 3 ms, well inside a check's latency budget.
 */
const MAX_BATCH = 128;
/**
 * Statements in flight at once. The second one starts only when a full batch is waiting: below that,
 * the next batch keeps gathering while one statement runs, because a statement's fixed cost (round
 * trip, node-pg's per-query work, PostgreSQL's parse-bind-execute) is most of what a small batch costs.
 */
const MAX_IN_FLIGHT = 2;

interface Pending {
  readonly read: SetCheckRead;
  readonly resolve: (keys: string[]) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Reads the checked set of uncached checks, the one statement such a check usually runs (the group
 * memo answers the levels below), by grouping: the reads waiting when a statement can start (at the
 * end of the event-loop turn, or when the previous statement returns) go to the database in one
 * statement, and each caller gets the keys its own statement would have returned. While a statement
 * runs, the next batch gathers (a second starts only once a full batch waits), so batches grow with
 * the load and the database's latency. A read is sent only after it was asked for, so it sees every
 * write committed before its check arrived; nothing is kept once answered. A batch of one runs the
 * plain statement, cheaper alone. If a batch fails, its reads are retried one by one, so a bad read
 * fails only its own caller, and an outage reaches each caller as its own statement's error.
 */
@Injectable()
export class SetCheckBatchReader {
  private pending: Pending[] = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(private readonly repository: TuplesRepository) {}

  read(read: SetCheckRead): Promise<string[]> {
    return new Promise<string[]>((resolve, reject) => {
      this.pending.push({ read, resolve, reject });
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
      void this.send(batch).finally(() => {
        this.inFlight -= 1;
        this.schedule();
      });
    }
  }

  private async send(batch: readonly Pending[]): Promise<void> {
    if (batch.length === 1) {
      const [entry] = batch as [Pending];
      await this.repository.subjectKeysOfSet(entry.read).then(entry.resolve, entry.reject);
      return;
    }
    let keys: string[][];
    try {
      keys = await this.repository.subjectKeysOfEach(batch.map((entry) => entry.read));
    } catch {
      await Promise.all(batch.map((entry) => this.send([entry])));
      return;
    }
    batch.forEach((entry, index) => entry.resolve(keys[index]!));
  }
}
