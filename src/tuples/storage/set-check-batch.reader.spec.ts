import { describe, expect, it } from 'vitest';
import type { TuplesRepository } from '../tuples.repository.js';
import { SetCheckBatchReader } from './set-check-batch.reader.js';
import type { SetCheckRead } from './stored-tuple.js';

const read = (object: string): SetCheckRead => ({
  set: { namespaceId: 1, object, relation: 'viewer' },
  targetKey: 'i:ann',
  withSets: true,
});

/** Answers each read with `<object>-key`; a statement holding `failOn` fails. */
function repository(options: { failOn?: string } = {}): {
  repo: TuplesRepository;
  statements: string[][];
  methods: string[];
} {
  const statements: string[][] = [];
  const methods: string[] = [];
  const answer = (reads: readonly SetCheckRead[]): string[][] => {
    const objects = reads.map((entry) => entry.set.object);
    statements.push(objects);
    if (options.failOn !== undefined && objects.includes(options.failOn)) throw new Error('invalid byte sequence');
    return objects.map((object) => [`${object}-key`]);
  };
  const repo = {
    subjectKeysOfSet: async (entry: SetCheckRead) => {
      methods.push('one');
      return answer([entry])[0];
    },
    subjectKeysOfEach: async (reads: readonly SetCheckRead[]) => {
      methods.push('many');
      return answer(reads);
    },
  } as unknown as TuplesRepository;
  return { repo, statements, methods };
}

describe('SetCheckBatchReader', () => {
  it('reads the sets of one event-loop turn in one statement, and gives each caller its own keys', async () => {
    const { repo, statements, methods } = repository();
    const reader = new SetCheckBatchReader(repo);
    expect(await Promise.all(['a', 'b', 'a'].map((object) => reader.read(read(object))))).toEqual([['a-key'], ['b-key'], ['a-key']]);
    expect(statements).toEqual([['a', 'b', 'a']]);
    expect(await reader.read(read('c'))).toEqual(['c-key']);
    expect(statements).toEqual([['a', 'b', 'a'], ['c']]);
    // A read alone takes the plain single-set statement.
    expect(methods).toEqual(['many', 'one']);
  });

  it('retries a failed batch read by read, so only the bad read fails', async () => {
    const { repo, statements } = repository({ failOn: 'b' });
    const reader = new SetCheckBatchReader(repo);
    const results = await Promise.allSettled(['a', 'b', 'c'].map((object) => reader.read(read(object))));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(statements).toEqual([['a', 'b', 'c'], ['a'], ['b'], ['c']]);
  });

  it('splits large batches', async () => {
    const { repo, statements } = repository();
    const reader = new SetCheckBatchReader(repo);
    await Promise.all(Array.from({ length: 300 }, (_, index) => reader.read(read(String(index)))));
    expect(statements.map((batch) => batch.length)).toEqual([128, 128, 44]);
  });
});
