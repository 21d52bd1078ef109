import { describe, expect, it } from 'vitest';
import type { TuplesRepository } from '../tuples.repository.js';
import { SetCheckBatchReader } from './set-check-batch.reader.js';
import type { SetCheckRead } from './stored-tuple.js';

const read = (object: string): SetCheckRead => ({
  set: { namespaceId: 1, object, relation: 'viewer' },
  targetKey: 'i:ann',
  withSets: true,
});

/** Answers each read with `<object>-key`; a statement holding `failOn` fails, and every one fails when `down`. */
function repository(options: { failOn?: string; down?: boolean } = {}): { repo: TuplesRepository; statements: string[][] } {
  const statements: string[][] = [];
  const answer = (reads: readonly SetCheckRead[]): string[][] => {
    const objects = reads.map((entry) => entry.set.object);
    statements.push(objects);
    if (options.down === true) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    if (options.failOn !== undefined && objects.includes(options.failOn)) throw new Error('invalid byte sequence');
    return objects.map((object) => [`${object}-key`]);
  };
  const repo = {
    subjectKeysOfSet: async (entry: SetCheckRead) => answer([entry])[0],
    subjectKeysOfEach: async (reads: readonly SetCheckRead[]) => answer(reads),
  } as unknown as TuplesRepository;
  return { repo, statements };
}

describe('SetCheckBatchReader', () => {
  it('reads the sets of one event-loop turn in one statement, and gives each caller its own keys', async () => {
    const { repo, statements } = repository();
    const reader = new SetCheckBatchReader(repo);
    expect(await Promise.all(['a', 'b', 'a'].map((object) => reader.read(read(object))))).toEqual([['a-key'], ['b-key'], ['a-key']]);
    expect(statements).toEqual([['a', 'b', 'a']]);
    expect(await reader.read(read('c'))).toEqual(['c-key']);
    expect(statements).toEqual([['a', 'b', 'a'], ['c']]);
  });

  it('retries a failed batch read by read, so only the bad read fails', async () => {
    const { repo, statements } = repository({ failOn: 'b' });
    const reader = new SetCheckBatchReader(repo);
    const results = await Promise.allSettled(['a', 'b', 'c'].map((object) => reader.read(read(object))));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(statements).toEqual([['a', 'b', 'c'], ['a'], ['b'], ['c']]);
  });

  it('rejects every caller with its own statement’s error in an outage, unwrapped', async () => {
    const { repo } = repository({ down: true });
    const reader = new SetCheckBatchReader(repo);
    const results = await Promise.allSettled(['a', 'b', 'c'].map((object) => reader.read(read(object))));
    const errors = results.map((result) => (result.status === 'rejected' ? (result.reason as { code?: string }) : undefined));
    expect(errors.map((error) => error?.code)).toEqual(['ECONNREFUSED', 'ECONNREFUSED', 'ECONNREFUSED']);
    expect(new Set(errors).size).toBe(3);
  });

  it('splits large batches', async () => {
    const { repo, statements } = repository();
    const reader = new SetCheckBatchReader(repo);
    await Promise.all(Array.from({ length: 300 }, (_, index) => reader.read(read(String(index)))));
    expect(statements.map((batch) => batch.length)).toEqual([128, 128, 44]);
  });

  it('while a statement runs, what arrives gathers into the next batch', async () => {
    const { repo, statements, releases } = heldRepository();
    const reader = new SetCheckBatchReader(repo);
    const reads = [reader.read(read('a'))];
    await tick();
    reads.push(reader.read(read('b')));
    await tick();
    reads.push(reader.read(read('c')), reader.read(read('d')));
    await tick();
    expect(statements).toEqual([['a']]);
    releases[0]!();
    await tick();
    await tick();
    expect(statements).toEqual([['a'], ['b', 'c', 'd']]);
    releases[1]!();
    expect(await Promise.all(reads)).toEqual([['a-key'], ['b-key'], ['c-key'], ['d-key']]);
  });

  it('starts a second statement when a full batch waits, never a third', async () => {
    const { repo, statements, releases } = heldRepository();
    const reader = new SetCheckBatchReader(repo);
    const reads = [reader.read(read('first'))];
    await tick();
    reads.push(...Array.from({ length: 300 }, (_, index) => reader.read(read(String(index)))));
    await tick();
    expect(statements.map((batch) => batch.length)).toEqual([1, 128]);
    releases[0]!();
    await tick();
    await tick();
    expect(statements.map((batch) => batch.length)).toEqual([1, 128, 128]);
    releases[1]!();
    await tick();
    await tick();
    // 44 wait: fewer than a full batch, and one statement still runs.
    expect(statements.map((batch) => batch.length)).toEqual([1, 128, 128]);
    releases[2]!();
    await tick();
    await tick();
    expect(statements.map((batch) => batch.length)).toEqual([1, 128, 128, 44]);
    releases[3]!();
    await Promise.all(reads);
  });
});

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A repository whose statements answer only when the test releases them, in order. */
function heldRepository(): { repo: TuplesRepository; statements: string[][]; releases: Array<() => void> } {
  const statements: string[][] = [];
  const releases: Array<() => void> = [];
  const held = (reads: readonly SetCheckRead[]): Promise<string[][]> => {
    const objects = reads.map((entry) => entry.set.object);
    statements.push(objects);
    return new Promise((resolve) => releases.push(() => resolve(objects.map((object) => [`${object}-key`]))));
  };
  const repo = {
    subjectKeysOfSet: async (entry: SetCheckRead) => (await held([entry]))[0],
    subjectKeysOfEach: held,
  } as unknown as TuplesRepository;
  return { repo, statements, releases };
}
