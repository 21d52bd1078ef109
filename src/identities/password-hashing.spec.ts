import { describe, expect, it } from 'vitest';
import type { IdentitiesConfig } from '../config/app-config.js';
import { PasswordHashing } from './password-hashing.js';

function gate(hashingConcurrency: number): PasswordHashing {
  return new PasswordHashing({ hashingConcurrency } as IdentitiesConfig);
}

/** A piece of work that runs until released, recording how many ran at once. */
function controlledWork(counter: { now: number; max: number; order: number[] }, id: number) {
  let release!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<number>((resolve, reject) => {
    release = () => resolve(id);
    fail = reject;
  });
  const work = async (): Promise<number> => {
    counter.now += 1;
    counter.max = Math.max(counter.max, counter.now);
    counter.order.push(id);
    try {
      return await done;
    } finally {
      counter.now -= 1;
    }
  };
  return { work, release: () => release(), fail: (error: Error) => fail(error) };
}

const ticks = () => new Promise((resolve) => setImmediate(resolve));

describe('PasswordHashing', () => {
  it('runs at most the limit at once and starts the waiting ones in arrival order', async () => {
    const hashing = gate(2);
    const counter = { now: 0, max: 0, order: [] as number[] };
    const jobs = [1, 2, 3, 4, 5].map((id) => controlledWork(counter, id));
    const results = jobs.map((job) => hashing.run(job.work));
    await ticks();
    expect(counter.order).toEqual([1, 2]);
    jobs[1]!.release();
    await ticks();
    expect(counter.order).toEqual([1, 2, 3]);
    for (const job of jobs) job.release();
    expect(await Promise.all(results)).toEqual([1, 2, 3, 4, 5]);
    expect(counter.max).toBe(2);
    expect(counter.order).toEqual([1, 2, 3, 4, 5]);
  });

  it('a failing hash passes its error on and frees its slot', async () => {
    const hashing = gate(1);
    const counter = { now: 0, max: 0, order: [] as number[] };
    const failing = controlledWork(counter, 1);
    const next = controlledWork(counter, 2);
    const first = hashing.run(failing.work);
    const second = hashing.run(next.work);
    const error = new Error('native hasher failed');
    failing.fail(error);
    await expect(first).rejects.toBe(error);
    await ticks();
    expect(counter.order).toEqual([1, 2]);
    next.release();
    expect(await second).toBe(2);
    expect(counter.max).toBe(1);
    // Nothing is left holding a slot: the next run starts at once.
    const third = controlledWork(counter, 3);
    const run = hashing.run(third.work);
    await ticks();
    expect(counter.order).toEqual([1, 2, 3]);
    third.release();
    expect(await run).toBe(3);
  });
});
