import { Injectable } from '@nestjs/common';
import { StatementBatcher } from '../../database/statement-batcher.js';
import { TuplesRepository } from '../tuples.repository.js';
import type { SetCheckRead, StoredSet, StoredTuple } from './stored-tuple.js';

/**
 * Most reads in one statement. The cost per read stops falling at about 64 (measured about 25 µs of
 * statement time per read at 64 and at 256 on a million tuples), while every caller of a batch waits
 * for the whole statement: 128 keeps a full batch near 3 ms, well inside a check's latency budget.
 */
const MAX_BATCH = 128;
/** Statements in flight at once, per kind of read: below a full batch, the next one keeps gathering while one runs. */
const MAX_IN_FLIGHT = 2;

/**
 * The reads of uncached checks that concurrent checks share, grouped by StatementBatcher: each caller
 * gets what its own statement would have returned. Two kinds: the checked set's own rows (the one
 * statement a check usually runs, since the group memo answers the levels below), and, when the memo
 * misses, the subject sets of one exact set. A read is sent only after it was asked for, so it sees
 * every write committed before its check arrived; nothing is kept once answered. A batch of one runs
 * the plain statement, cheaper alone (measured up to 1.8 times cheaper than the batched statement
 * with one row).
 */
@Injectable()
export class SetCheckBatchReader {
  private readonly checks: StatementBatcher<SetCheckRead, string[]>;
  private readonly subjectSets: StatementBatcher<StoredSet, StoredTuple[]>;

  constructor(repository: TuplesRepository) {
    this.checks = new StatementBatcher({
      maxBatch: MAX_BATCH,
      maxInFlight: MAX_IN_FLIGHT,
      many: (reads) => repository.subjectKeysOfEach(reads),
      one: (read) => repository.subjectKeysOfSet(read),
    });
    this.subjectSets = new StatementBatcher({
      maxBatch: MAX_BATCH,
      maxInFlight: MAX_IN_FLIGHT,
      many: async (sets) => {
        // Checks that miss the memo at once often miss the same group: each set is read once.
        const bySet = new Map<string, StoredTuple[]>(sets.map((set) => [setKey(set), []]));
        const distinct = [...new Map(sets.map((set) => [setKey(set), set])).values()];
        for (const row of await repository.subjectSetsOf(distinct)) bySet.get(setKey(row))?.push(row);
        return sets.map((set) => bySet.get(setKey(set))!);
      },
      one: (set) => repository.subjectSetsOf([set]),
    });
  }

  /** The checked set's subjects that are the target, plus its subject sets when `withSets`, as stored keys. */
  read(read: SetCheckRead): Promise<string[]> {
    return this.checks.submit(read);
  }

  /** The tuples of one exact set (a relation named) whose subjects are subject sets. */
  subjectSetsOf(set: StoredSet): Promise<StoredTuple[]> {
    return this.subjectSets.submit(set);
  }
}

function setKey(set: StoredSet): string {
  return `${set.namespaceId}\u0000${set.object}\u0000${set.relation}`;
}
