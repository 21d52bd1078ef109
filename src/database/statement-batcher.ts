export interface StatementBatcherOptions<T, R> {
  /** Most items in one statement. */
  readonly maxBatch: number;
  /** Statements in flight at once; past the first, one starts only when a full batch waits. */
  readonly maxInFlight: number;
  /** One statement for several items: one answer per item, in their order. */
  readonly many: (items: readonly T[]) => Promise<readonly R[]>;
  /** One statement for one item: a batch of one, and each item of a batch that failed. */
  readonly one: (item: T) => Promise<R>;
}

/**
 * Group statements for a hot path: the items waiting when a statement can start (at the end of the
 * event-loop turn, or when the previous statement returns) go to the database in one statement, and
 * each caller is answered only when that statement has returned (a write is then committed). While a
 * statement runs, the next batch gathers, and a further statement starts only once a full batch
 * waits: a statement's fixed cost (round trip, node-pg's per-query work, PostgreSQL's parse, bind,
 * execute and, for a write, commit) is most of what a small batch costs, so batches grow with the
 * load and the database's latency instead. An item is sent only after it was submitted, so a read
 * sees every write committed before it was asked for; nothing is kept once answered. If a batch
 * fails, its items are sent one by one, so one bad item fails only its own caller, and an outage
 * reaches each caller as its own statement's error.
 */
export class StatementBatcher<T, R> {
  private pending: Array<{ readonly item: T; readonly resolve: (answer: R) => void; readonly reject: (error: unknown) => void }> = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(private readonly options: StatementBatcherOptions<T, R>) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
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
      void this.send(batch).finally(() => {
        this.inFlight -= 1;
        this.schedule();
      });
    }
  }

  private async send(batch: StatementBatcher<T, R>['pending']): Promise<void> {
    if (batch.length === 1) {
      const [entry] = batch as [(typeof batch)[number]];
      await this.options.one(entry.item).then(entry.resolve, entry.reject);
      return;
    }
    let answers: readonly R[];
    try {
      answers = await this.options.many(batch.map((entry) => entry.item));
    } catch {
      await Promise.all(batch.map((entry) => this.send([entry])));
      return;
    }
    batch.forEach((entry, index) => entry.resolve(answers[index]!));
  }
}
