import { Injectable } from '@nestjs/common';
import { StatementBatcher } from '../../database/statement-batcher.js';
import { TuplesRepository } from '../tuples.repository.js';
import type { SetCheckRead } from './stored-tuple.js';

/**
 * Most reads in one statement. The cost per read stops falling at about 64 (measured about 25 µs of
 * statement time per read at 64 and at 256 on a million tuples), while every caller of a batch waits
 * for the whole statement: 128 keeps a full batch near 3 ms, well inside a check's latency budget.
 */
const MAX_BATCH = 128;
/** Statements in flight at once: below a full batch, the next one keeps gathering while one runs. */
const MAX_IN_FLIGHT = 2;

/**
 * Reads the checked set of uncached checks, the one statement such a check usually runs (the group
 * memo answers the levels below), grouped by StatementBatcher: concurrent checks share one statement,
 * and each caller gets the keys its own statement would have returned. A read is sent only after it
 * was asked for, so it sees every write committed before its check arrived; nothing is kept once
 * answered. A batch of one runs the plain statement, cheaper alone (measured up to 1.8 times cheaper
 * than the batched statement with one row).
 */
@Injectable()
export class SetCheckBatchReader {
  private readonly batcher: StatementBatcher<SetCheckRead, string[]>;

  constructor(repository: TuplesRepository) {
    this.batcher = new StatementBatcher({
      maxBatch: MAX_BATCH,
      maxInFlight: MAX_IN_FLIGHT,
      many: (reads) => repository.subjectKeysOfEach(reads),
      one: (read) => repository.subjectKeysOfSet(read),
    });
  }

  read(read: SetCheckRead): Promise<string[]> {
    return this.batcher.submit(read);
  }
}
