/** How a GroupCommitWriter batches. */
export interface GroupCommitOptions {
  /** Most rows in one INSERT: keeps each statement's parameter and WAL record small. */
  readonly maxBatch: number;
  /**
   * INSERTs in flight at once. The second one starts only when a full batch is waiting: below that,
   * the next batch keeps gathering while one INSERT runs, because a statement's fixed cost (round trip,
   * commit and WAL flush) is most of what a small batch costs.
   */
  readonly maxInFlight: number;
}

export const GROUP_COMMIT_DEFAULTS: GroupCommitOptions = { maxBatch: 256, maxInFlight: 2 };

interface Pending<T> {
  readonly row: T;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit for one table's inserts: the rows waiting when an INSERT can start (at the end of the
 * event-loop turn, or when the previous INSERT returns) go to the database in one statement
 * (`insertMany`, one round trip and one commit), and each `write` resolves only once its row is
 * committed: nothing is acknowledged before it is durable. While an INSERT runs, the next batch
 * gathers (a second INSERT starts only once a full batch waits), so batches grow with the load and
 * the database's latency; at low load a batch is one row, as without it. If a batch fails, its rows are
 * retried one by one, so one bad row fails only its own write.
 */
export class GroupCommitWriter<T> {
  private pending: Pending<T>[] = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(
    private readonly insertMany: (rows: readonly T[]) => Promise<void>,
    private readonly options: GroupCommitOptions = GROUP_COMMIT_DEFAULTS,
  ) {}

  write(row: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ row, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || !this.mayStart()) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private mayStart(): boolean {
    if (this.pending.length === 0 || this.inFlight >= this.options.maxInFlight) return false;
    return this.inFlight === 0 || this.pending.length >= this.options.maxBatch;
  }

  private flush(): void {
    this.scheduled = false;
    while (this.mayStart()) {
      const batch = this.pending.splice(0, this.options.maxBatch);
      this.inFlight += 1;
      void this.insert(batch).finally(() => {
        this.inFlight -= 1;
        this.schedule();
      });
    }
  }

  private async insert(batch: readonly Pending<T>[]): Promise<void> {
    try {
      await this.insertMany(batch.map((entry) => entry.row));
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
