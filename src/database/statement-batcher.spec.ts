import { describe, expect, it } from 'vitest';
import { StatementBatcher } from './statement-batcher.js';

/** A batcher whose statements answer `<item>!` at once; a statement holding `failOn` fails. */
function immediate(options: { failOn?: string; maxBatch?: number } = {}): {
  batcher: StatementBatcher<string, string>;
  statements: string[][];
} {
  const statements: string[][] = [];
  const answer = (items: readonly string[]): string[] => {
    statements.push([...items]);
    if (options.failOn !== undefined && items.includes(options.failOn)) throw new Error('invalid byte sequence');
    return items.map((item) => `${item}!`);
  };
  const batcher = new StatementBatcher<string, string>({
    maxBatch: options.maxBatch ?? 4,
    maxInFlight: 2,
    many: async (items) => answer(items),
    one: async (item) => answer([item])[0]!,
  });
  return { batcher, statements };
}

/** A batcher whose statements answer only when the test releases them, in order. */
function held(maxBatch: number): { batcher: StatementBatcher<string, string>; statements: string[][]; releases: Array<() => void> } {
  const statements: string[][] = [];
  const releases: Array<() => void> = [];
  const many = (items: readonly string[]): Promise<string[]> => {
    statements.push([...items]);
    return new Promise((resolve) => releases.push(() => resolve(items.map((item) => `${item}!`))));
  };
  const batcher = new StatementBatcher<string, string>({ maxBatch, maxInFlight: 2, many, one: async (item) => (await many([item]))[0]! });
  return { batcher, statements, releases };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('StatementBatcher', () => {
  it('sends the items of one event-loop turn in one statement, and answers each caller with its own answer', async () => {
    const { batcher, statements } = immediate();
    expect(await Promise.all(['a', 'b', 'a'].map((item) => batcher.submit(item)))).toEqual(['a!', 'b!', 'a!']);
    expect(statements).toEqual([['a', 'b', 'a']]);
    expect(await batcher.submit('c')).toBe('c!');
    expect(statements).toEqual([['a', 'b', 'a'], ['c']]);
  });

  it('retries a failed batch item by item, so only the bad item fails', async () => {
    const { batcher, statements } = immediate({ failOn: 'b' });
    const results = await Promise.allSettled(['a', 'b', 'c'].map((item) => batcher.submit(item)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(statements).toEqual([['a', 'b', 'c'], ['a'], ['b'], ['c']]);
  });

  it('rejects every caller with its own statement’s error when every statement fails, unwrapped', async () => {
    const failures: Error[] = [];
    const down = (): never => {
      const error = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      failures.push(error);
      throw error;
    };
    const batcher = new StatementBatcher<string, string>({
      maxBatch: 4,
      maxInFlight: 2,
      many: async () => down(),
      one: async () => down(),
    });
    const results = await Promise.allSettled(['a', 'b', 'c'].map((item) => batcher.submit(item)));
    const reasons = results.map((result) => (result.status === 'rejected' ? result.reason : undefined));
    expect(reasons).toEqual(failures.slice(1));
    expect(new Set(reasons).size).toBe(3);
  });

  it('splits large batches', async () => {
    const { batcher, statements } = immediate({ maxBatch: 4 });
    await Promise.all(Array.from({ length: 10 }, (_, index) => batcher.submit(String(index))));
    expect(statements.map((batch) => batch.length)).toEqual([4, 4, 2]);
  });

  it('while a statement runs, what arrives gathers into the next batch', async () => {
    const { batcher, statements, releases } = held(4);
    const answers = [batcher.submit('a')];
    await tick();
    answers.push(batcher.submit('b'));
    await tick();
    answers.push(batcher.submit('c'), batcher.submit('d'));
    await tick();
    expect(statements).toEqual([['a']]);
    releases[0]!();
    await tick();
    await tick();
    expect(statements).toEqual([['a'], ['b', 'c', 'd']]);
    releases[1]!();
    expect(await Promise.all(answers)).toEqual(['a!', 'b!', 'c!', 'd!']);
  });

  it('starts a second statement when a full batch waits, never a third', async () => {
    const { batcher, statements, releases } = held(4);
    const answers = [batcher.submit('first')];
    await tick();
    answers.push(...Array.from({ length: 10 }, (_, index) => batcher.submit(String(index))));
    await tick();
    expect(statements.map((batch) => batch.length)).toEqual([1, 4]);
    releases[0]!();
    await tick();
    await tick();
    expect(statements.map((batch) => batch.length)).toEqual([1, 4, 4]);
    releases[1]!();
    await tick();
    await tick();
    // 2 wait: fewer than a full batch, and one statement still runs.
    expect(statements.map((batch) => batch.length)).toEqual([1, 4, 4]);
    releases[2]!();
    await tick();
    await tick();
    expect(statements.map((batch) => batch.length)).toEqual([1, 4, 4, 2]);
    releases[3]!();
    await Promise.all(answers);
  });
});
