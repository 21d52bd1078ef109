import type { Logger } from '@nestjs/common';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PeriodicJob } from './periodic-job.js';

function logger(): { logger: Logger; debug: unknown[]; warn: unknown[] } {
  const debug: unknown[] = [];
  const warn: unknown[] = [];
  return { logger: { debug: (m: unknown) => debug.push(m), warn: (m: unknown) => warn.push(m) } as unknown as Logger, debug, warn };
}

describe('PeriodicJob', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('skips a tick while the previous run is still going', async () => {
    const log = logger();
    let started = 0;
    let finish: (() => void) | undefined;
    const job = new PeriodicJob(log.logger, { done: 'done', failed: 'failed' }, () => {
      started += 1;
      return new Promise<object>((resolve) => (finish = () => resolve({ rows: 1 })));
    });
    job.start(10);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(started).toBe(1);
    finish?.();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(started).toBe(2);
    expect(log.debug).toEqual([{ msg: 'done', rows: 1 }]);
    job.stop();
  });

  it('logs a failed run and tries again on the next tick', async () => {
    const log = logger();
    let runs = 0;
    const job = new PeriodicJob(log.logger, { done: 'done', failed: 'failed' }, async () => {
      runs += 1;
      if (runs === 1) throw new Error('database down');
      return {};
    });
    job.start(10);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(runs).toBe(2);
    expect(log.warn).toEqual([{ msg: 'failed', error: 'database down' }]);
    job.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(2);
  });
});
