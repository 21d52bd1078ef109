import { Injectable } from '@nestjs/common';
import { GroupCommitWriter } from '../../database/group-commit.writer.js';
import type { StoredAccessToken } from './stored-token.js';
import { TokensRepository } from './tokens.repository.js';

/**
 * Stores client_credentials access tokens, the one write on the busiest path, by group commit (see
 * GroupCommitWriter: batches of up to 256 tokens, two INSERTs in flight at most, each request answered
 * only once its row is committed, a failed batch retried row by row so that e.g. a token of a client
 * deleted meanwhile fails only its own request). Under load this turns one round trip and one
 * statement per token into one per batch.
 */
@Injectable()
export class AccessTokenBatchWriter {
  private readonly writer: GroupCommitWriter<StoredAccessToken>;

  constructor(repository: TokensRepository) {
    this.writer = new GroupCommitWriter((tokens) => repository.insertAccessTokens(tokens));
  }

  write(token: StoredAccessToken): Promise<void> {
    return this.writer.write(token);
  }
}
