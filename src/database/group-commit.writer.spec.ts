import { describe, expect, it } from 'vitest';
import { GroupCommitWriter } from './group-commit.writer.js';

describe('GroupCommitWriter', () => {
  it('writes the rows of one event-loop turn in one statement, and answers each once stored', async () => {
    const batches: string[][] = [];
    const writer = new GroupCommitWriter<string>(async (rows) => {
      batches.push([...rows]);
    });
    await Promise.all(['a', 'b', 'c'].map((row) => writer.write(row)));
    expect(batches).toEqual([['a', 'b', 'c']]);
    await writer.write('d');
    expect(batches).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('acknowledges nothing before its statement returns', async () => {
    const releases: Array<() => void> = [];
    const writer = new GroupCommitWriter<string>((_rows) => new Promise<void>((resolve) => releases.push(resolve)));
    let done = false;
    const write = writer.write('a').then(() => (done = true));
    await tick();
    expect(releases).toHaveLength(1);
    expect(done).toBe(false);
    releases[0]!();
    await write;
    expect(done).toBe(true);
  });

  it('retries a failed batch row by row, so only the bad row fails', async () => {
    const batches: string[][] = [];
    const writer = new GroupCommitWriter<string>(async (rows) => {
      batches.push([...rows]);
      if (rows.includes('b')) throw new Error('unique violation');
    });
    const results = await Promise.allSettled(['a', 'b', 'c'].map((row) => writer.write(row)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(batches).toEqual([['a', 'b', 'c'], ['a'], ['b'], ['c']]);
  });

  it('honours its batch size', async () => {
    const sizes: number[] = [];
    const writer = new GroupCommitWriter<number>(
      async (rows) => {
        sizes.push(rows.length);
      },
      { maxBatch: 4, maxInFlight: 2 },
    );
    await Promise.all(Array.from({ length: 10 }, (_, index) => writer.write(index)));
    expect(sizes).toEqual([4, 4, 2]);
  });
});

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
