import { describe, expect, it } from 'vitest';
import { AccessTokenBatchWriter } from './access-token-batch.writer.js';
import type { StoredAccessToken } from './stored-token.js';
import type { TokensRepository } from './tokens.repository.js';

const row = (signature: string): StoredAccessToken => ({ signature }) as StoredAccessToken;

function repository(failOn?: string): { repository: TokensRepository; batches: string[][] } {
  const batches: string[][] = [];
  return {
    batches,
    repository: {
      insertAccessTokens: async (tokens: readonly StoredAccessToken[]) => {
        batches.push(tokens.map((token) => token.signature));
        if (failOn !== undefined && tokens.some((token) => token.signature === failOn)) throw new Error('foreign key violation');
      },
    } as unknown as TokensRepository,
  };
}

describe('AccessTokenBatchWriter', () => {
  it('writes the tokens of one event-loop turn in one statement, and answers each once stored', async () => {
    const { repository: repo, batches } = repository();
    const writer = new AccessTokenBatchWriter(repo);
    await Promise.all(['a', 'b', 'c'].map((signature) => writer.write(row(signature))));
    expect(batches).toEqual([['a', 'b', 'c']]);
    await writer.write(row('d'));
    expect(batches).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('retries a failed batch row by row, so only the bad row fails', async () => {
    const { repository: repo, batches } = repository('b');
    const writer = new AccessTokenBatchWriter(repo);
    const results = await Promise.allSettled(['a', 'b', 'c'].map((signature) => writer.write(row(signature))));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(batches).toEqual([['a', 'b', 'c'], ['a'], ['b'], ['c']]);
  });

  it('splits large batches', async () => {
    const { repository: repo, batches } = repository();
    const writer = new AccessTokenBatchWriter(repo);
    await Promise.all(Array.from({ length: 300 }, (_, index) => writer.write(row(String(index)))));
    expect(batches.map((batch) => batch.length)).toEqual([256, 44]);
  });

  it('while an INSERT runs, what arrives gathers into the next batch', async () => {
    const { repo, batches, releases } = heldRepository();
    const writer = new AccessTokenBatchWriter(repo);
    const writes = [writer.write(row('a'))];
    await tick();
    writes.push(writer.write(row('b')));
    await tick();
    writes.push(writer.write(row('c')), writer.write(row('d')));
    await tick();
    expect(batches).toEqual([['a']]);
    releases[0]!();
    await tick();
    await tick();
    expect(batches).toEqual([['a'], ['b', 'c', 'd']]);
    releases[1]!();
    await Promise.all(writes);
  });

  it('starts a second INSERT when a full batch waits, never a third', async () => {
    const { repo, batches, releases } = heldRepository();
    const writer = new AccessTokenBatchWriter(repo);
    const writes = [writer.write(row('first'))];
    await tick();
    writes.push(...Array.from({ length: 600 }, (_, index) => writer.write(row(String(index)))));
    await tick();
    expect(batches.map((batch) => batch.length)).toEqual([1, 256]);
    releases[0]!();
    await tick();
    await tick();
    expect(batches.map((batch) => batch.length)).toEqual([1, 256, 256]);
    releases[1]!();
    await tick();
    await tick();
    // 88 wait: fewer than a full batch, and one INSERT still runs.
    expect(batches.map((batch) => batch.length)).toEqual([1, 256, 256]);
    releases[2]!();
    await tick();
    await tick();
    expect(batches.map((batch) => batch.length)).toEqual([1, 256, 256, 88]);
    releases[3]!();
    await Promise.all(writes);
  });
});

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A repository whose INSERTs finish only when the test releases them, in order. */
function heldRepository(): { repo: TokensRepository; batches: string[][]; releases: Array<() => void> } {
  const batches: string[][] = [];
  const releases: Array<() => void> = [];
  const repo = {
    insertAccessTokens: (tokens: readonly StoredAccessToken[]) => {
      batches.push(tokens.map((token) => token.signature));
      return new Promise<void>((resolve) => releases.push(resolve));
    },
  } as unknown as TokensRepository;
  return { repo, batches, releases };
}
