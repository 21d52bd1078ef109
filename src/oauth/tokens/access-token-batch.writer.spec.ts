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
});
