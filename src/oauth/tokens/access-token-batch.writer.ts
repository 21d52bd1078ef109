import { Injectable } from '@nestjs/common';
import { StatementBatcher } from '../../database/statement-batcher.js';
import type { StoredAccessToken } from './stored-token.js';
import { TokensRepository } from './tokens.repository.js';

/** Most rows in one INSERT: keeps each statement's parameter and WAL record small. */
const MAX_BATCH = 256;
/**
 * INSERTs in flight at once. A statement's fixed cost (round trip, commit and WAL flush) is about as
 * much PostgreSQL CPU as 15 rows, so below a full batch the next one keeps gathering.
 */
const MAX_IN_FLIGHT = 2;

/**
 * Stores client_credentials access tokens, the one write on the busiest path, by group commit
 * (StatementBatcher): the tokens waiting when an INSERT can start go to the database in one multi-row
 * INSERT, and each request answers only once its row is committed (nothing is acknowledged before it
 * is durable). Under load this turns one round trip and one statement per token into one per batch.
 * If a batch fails (e.g. a client was deleted meanwhile and its row breaks the foreign key), its rows
 * are retried one by one, so one bad row fails only its own request.
 */
@Injectable()
export class AccessTokenBatchWriter {
  private readonly batcher: StatementBatcher<StoredAccessToken, void>;

  constructor(repository: TokensRepository) {
    this.batcher = new StatementBatcher({
      maxBatch: MAX_BATCH,
      maxInFlight: MAX_IN_FLIGHT,
      many: async (tokens) => {
        await repository.insertAccessTokens(tokens);
        return tokens.map(() => undefined);
      },
      one: (token) => repository.insertAccessTokens([token]),
    });
  }

  write(token: StoredAccessToken): Promise<void> {
    return this.batcher.submit(token);
  }
}
