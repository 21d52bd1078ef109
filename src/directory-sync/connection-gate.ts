import { DirectorySyncError } from './directory-sync.errors.js';

interface Lane {
  running: number;
  readonly waiting: (() => void)[];
}

/**
 * Bounds, per connection, how many deliveries one instance applies at once (`limit`); the rest wait
 * their turn, first come first served, up to `maxWaiting`, past which a delivery is refused (503
 * `too_many_deliveries`) rather than held. One directory cannot take the whole database pool.
 */
export class ConnectionGate {
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly limit: number,
    private readonly maxWaiting: number,
  ) {}

  async run<T>(connectionId: string, work: () => Promise<T>): Promise<T> {
    let lane = this.lanes.get(connectionId);
    if (lane === undefined) {
      lane = { running: 0, waiting: [] };
      this.lanes.set(connectionId, lane);
    }
    if (lane.running < this.limit) lane.running += 1;
    else if (lane.waiting.length >= this.maxWaiting) throw DirectorySyncError.tooManyDeliveries();
    else await new Promise<void>((resolve) => lane.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter (running stays the same), or is freed.
      const next = lane.waiting.shift();
      if (next !== undefined) next();
      else {
        lane.running -= 1;
        if (lane.running === 0) this.lanes.delete(connectionId);
      }
    }
  }
}
