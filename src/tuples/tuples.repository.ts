import { Injectable } from '@nestjs/common';
import type pg from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import { SUBJECT_SET_END, SUBJECT_SET_FIRST } from './storage/subject-key.js';
import type { PageCursor, SetCheckRead, StoredFilter, StoredSet, StoredTuple } from './storage/stored-tuple.js';
import type { Announce } from '../database/change-notifier.js';
import { type NamedStatement, runNamed, withTransaction } from '../database/named-statements.js';
import { sqlStateOf } from '../database/sql-state.js';
import { entityRows, type EntityRows } from '../database/entity-rows.js';
import { RelationTupleEntity } from './entities/relation-tuple.entity.js';

/**
 * `relation_tuples`, through raw parameterised SQL on the pool, as named (prepared once per
 * connection) statements: on the check path that is about three times faster than repository finders
 * (docs/reference: performance §3.6). Every query below is served by the primary key
 * (namespace_id, object, relation, subject_key) or by the subject index.
 *
 * The sets of one BFS level travel as three parallel arrays unnested into rows, so one statement text
 * (and one prepared plan) serves any number of sets. A level of one set (a direct check, a chain) is
 * the common case and gets plain statements: measured 2 to 3 times cheaper than the unnest join.
 */
const LEVEL_SETS = 'unnest($1::int[], $2::text[], $3::text[]) AS q(namespace_id, object, relation)';
const SAME_SET = 't.namespace_id = q.namespace_id AND t.object = q.object AND t.relation = q.relation';
const SAME_OBJECT = 't.namespace_id = q.namespace_id AND t.object = q.object';

/**
 * The subject sets among the subjects of one set whose relation is `relation`: a range of the primary
 * key. Written over (relation, subject_key), columns next to each other only in the primary key, so
 * that on a table without statistics yet (just filled) the planner cannot take the subject index
 * instead and scan every subject set of the namespace for each set read.
 */
const setsOfRelation = (relation: string): string =>
  `(t.relation, t.subject_key) >= (${relation}, '${SUBJECT_SET_FIRST}') AND (t.relation, t.subject_key) < (${relation}, '${SUBJECT_SET_END}')`;
/** The same over every relation of the object: no single range. */
const SETS_OF_ANY_RELATION = `t.subject_key >= '${SUBJECT_SET_FIRST}' AND t.subject_key < '${SUBJECT_SET_END}'`;

/** Two index conditions, not one OR filter: a wide set is probed for the one subject, never scanned. */
const checkLevel = (match: string, sets: string): string => `
  SELECT t.subject_key FROM ${LEVEL_SETS} CROSS JOIN LATERAL (
    SELECT t.subject_key FROM relation_tuples t WHERE ${match} AND t.subject_key = $4
    UNION ALL
    SELECT t.subject_key FROM relation_tuples t WHERE ${match} AND ${sets} AND t.subject_key <> $4
  ) t`;
/** The same for one set, in $1..$3. */
const ONE_SET = 't.namespace_id = $1 AND t.object = $2 AND t.relation = $3';
const checkOneSet = `
  SELECT t.subject_key FROM relation_tuples t WHERE ${ONE_SET} AND t.subject_key = $4
  UNION ALL
  SELECT t.subject_key FROM relation_tuples t WHERE ${ONE_SET} AND ${setsOfRelation('$3')} AND t.subject_key <> $4`;
/**
 * Single-set check reads of concurrent checks in one statement (see SetCheckBatchReader): each row of
 * $1..$5 is one `checkOneSet`, or one `checkOneSetTarget` when its with_sets is false, and every row
 * answered carries the ordinal of its read. with_sets gates the subject-set branch as a one-time filter
 * per read, so both kinds share a batch (measured no dearer than a statement without the flag). Each
 * branch is a primary key probe or range per read, also on a table without statistics yet.
 */
const checkSets = `
  SELECT q.n::int AS n, t.subject_key
  FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::bool[])
    WITH ORDINALITY AS q(namespace_id, object, relation, target, with_sets, n)
  CROSS JOIN LATERAL (
    SELECT t.subject_key FROM relation_tuples t WHERE ${SAME_SET} AND t.subject_key = q.target
    UNION ALL
    SELECT t.subject_key FROM relation_tuples t
    WHERE q.with_sets AND ${SAME_SET} AND ${setsOfRelation('q.relation')} AND t.subject_key <> q.target
  ) t`;
const checkTarget = (match: string): string =>
  `SELECT t.subject_key FROM ${LEVEL_SETS} JOIN relation_tuples t ON ${match} AND t.subject_key = $4`;
/** The tuples of the level's sets whose subjects are subject sets: an index range per set. */
const subjectSetsOf = (tuples: EntityRows<RelationTupleEntity>, match: string, sets: string): string =>
  `SELECT ${tuples.qualified('t')} FROM ${LEVEL_SETS} JOIN relation_tuples t ON ${match} AND ${sets}`;
const children = (tuples: EntityRows<RelationTupleEntity>, match: string): string =>
  `SELECT ${tuples.qualified('t')} FROM ${LEVEL_SETS} JOIN relation_tuples t ON ${match}
   ORDER BY t.namespace_id, t.object, t.relation, t.subject_key`;

/**
 * A whole check in one statement: a breadth-first walk from the checked set, as stored keys. A row is
 * a subject found in a tuple `depth` tuples down the path (the checked set itself is the row at depth
 * 0, so the walk may start from it); a subject-set row is read in turn while the path may grow, and
 * only when its namespace id is among $4 (sets of other namespaces have no members). UNION drops the
 * rows a level repeats, so a level reads each set once however many paths reach it; a cycle ends at
 * the depth limit. The walk runs only as far as the outer query pulls it: up to the first row that
 * is the target ($2, found = true) or up to the $5th row (found = false: too wide to settle here).
 * No row: the target is not reachable within $3 tuples. A stored key of a set reads
 * `s:<namespace id>:<object>#<relation>` (objects hold neither `:` nor `#`); an empty relation stands
 * for every relation of the object.
 */
const walkTo = `
  WITH RECURSIVE walk(subject_key, depth) AS (
    SELECT $1::text COLLATE "C", 0
    UNION
    SELECT t.subject_key::text, w.depth + 1
    FROM walk w
    CROSS JOIN LATERAL regexp_match(w.subject_key, '^s:([0-9]+):([^#]*)#(.*)$') AS m(part)
    CROSS JOIN LATERAL (
      SELECT t.subject_key FROM relation_tuples t
      WHERE m.part[3] <> '' AND t.namespace_id = m.part[1]::int AND t.object = m.part[2] AND t.relation = m.part[3]
        AND t.subject_key = $2
      UNION ALL
      SELECT t.subject_key FROM relation_tuples t
      WHERE m.part[3] <> '' AND w.depth + 1 < $3 AND t.namespace_id = m.part[1]::int AND t.object = m.part[2]
        AND t.relation = m.part[3] AND ${setsOfRelation('m.part[3]')} AND t.subject_key <> $2
      UNION ALL
      SELECT t.subject_key FROM relation_tuples t
      WHERE m.part[3] = '' AND t.namespace_id = m.part[1]::int AND t.object = m.part[2]
        AND (t.subject_key = $2 OR (w.depth + 1 < $3 AND ${SETS_OF_ANY_RELATION}))
    ) t
    WHERE m.part[1]::int = ANY($4::int[])
  )
  SELECT w.depth > 0 AND w.subject_key = $2 AS found
  FROM (SELECT subject_key, depth, row_number() OVER () AS n FROM walk) w
  WHERE (w.depth > 0 AND w.subject_key = $2) OR w.n = $5
  LIMIT 1`;

/** The statements below, on the columns RelationTupleEntity declares (see entityRows). */
const statements = (tuples: EntityRows<RelationTupleEntity>) => ({
  walkTo,
  checkOneSet,
  checkOneSetTarget: `SELECT t.subject_key FROM relation_tuples t WHERE ${ONE_SET} AND t.subject_key = $4`,
  checkSets,
  childrenOfOneSet: `SELECT ${tuples.qualified('t')} FROM relation_tuples t WHERE ${ONE_SET} ORDER BY t.subject_key`,
  checkLevel: checkLevel(SAME_SET, setsOfRelation('q.relation')),
  checkLevelAnyRelation: checkLevel(SAME_OBJECT, SETS_OF_ANY_RELATION),
  checkTarget: checkTarget(SAME_SET),
  checkTargetAnyRelation: checkTarget(SAME_OBJECT),
  subjectSetsOf: subjectSetsOf(tuples, SAME_SET, setsOfRelation('q.relation')),
  subjectSetsOfAnyRelation: subjectSetsOf(tuples, SAME_OBJECT, SETS_OF_ANY_RELATION),
  /** Served by the subject index (namespace_id, subject_key), one probe per namespace. */
  setsWithSubject: `SELECT ${tuples.qualified('t')} FROM relation_tuples t
    WHERE t.namespace_id = ANY($1::int[]) AND t.subject_key = $2 LIMIT $3`,
  children: children(tuples, SAME_SET),
  childrenAnyRelation: children(tuples, SAME_OBJECT),
  insert: `INSERT INTO relation_tuples (${tuples.columns}) VALUES (${tuples.placeholders()}) ON CONFLICT DO NOTHING`,
  insertMany: `INSERT INTO relation_tuples (${tuples.columns})
    SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[]) ON CONFLICT DO NOTHING`,
  page: (where: string, limit: string) =>
    `SELECT ${tuples.columns} FROM relation_tuples WHERE ${where} ORDER BY object, relation, subject_key LIMIT ${limit}`,
  deleteMany: `DELETE FROM relation_tuples t
    USING unnest($1::int[], $2::text[], $3::text[], $4::text[]) AS d(namespace_id, object, relation, subject_key)
    WHERE t.namespace_id = d.namespace_id AND t.object = d.object AND t.relation = d.relation AND t.subject_key = d.subject_key`,
});
type Statements = ReturnType<typeof statements>;
type NamedKey = { [K in keyof Statements]: Statements[K] extends string ? K : never }[keyof Statements];

/** Deadlock and serialization failure: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

/** The statements above as named statements (`tuples_` + key): the hot path skips the query-runner layer. */
function named(texts: Statements): Record<NamedKey, NamedStatement> {
  const entries = Object.entries(texts).filter((entry): entry is [NamedKey, string] => typeof entry[1] === 'string');
  return Object.fromEntries(entries.map(([name, text]) => [name, { name: `tuples_${name}`, text }])) as Record<NamedKey, NamedStatement>;
}

/** A row of a statement that reads only the subject column. */
interface SubjectRow {
  subject_key: string;
}

@Injectable()
export class TuplesRepository {
  private readonly tuples: EntityRows<RelationTupleEntity>;
  private readonly statements: Statements;
  private readonly named: Record<NamedKey, NamedStatement>;

  constructor(private readonly dataSource: DataSource) {
    this.tuples = entityRows(dataSource, RelationTupleEntity);
    this.statements = statements(this.tuples);
    this.named = named(this.statements);
  }

  /**
   * The subject keys of `sets` that are `targetKey`, plus, when `withSets`, every subject set among them.
   * A level of one exact set alone is read through SetCheckBatchReader, which gathers concurrent checks.
   */
  async subjectKeysForCheck(sets: readonly StoredSet[], targetKey: string, withSets: boolean): Promise<string[]> {
    const { exact, anyRelation } = partition(sets);
    let keys: string[] = [];
    if (exact.length === 1) {
      const [set] = exact as [StoredSet];
      keys = await this.subjectKeysOfSet({ set, targetKey, withSets });
    } else if (exact.length > 1) {
      const name = withSets ? 'checkLevel' : 'checkTarget';
      for (const row of await this.run<SubjectRow>(name, [...columns(exact), targetKey])) keys.push(row.subject_key);
    }
    if (anyRelation.length > 0) {
      const name = withSets ? 'checkLevelAnyRelation' : 'checkTargetAnyRelation';
      for (const row of await this.run<SubjectRow>(name, [...columns(anyRelation), targetKey])) keys.push(row.subject_key);
    }
    return keys;
  }

  /** `subjectKeysForCheck` of one exact set, in the plain statement: the cheapest for one read alone. */
  async subjectKeysOfSet({ set, targetKey, withSets }: SetCheckRead): Promise<string[]> {
    const name = withSets ? 'checkOneSet' : 'checkOneSetTarget';
    const rows = await this.run<SubjectRow>(name, [set.namespaceId, set.object, set.relation, targetKey]);
    return rows.map((row) => row.subject_key);
  }

  /**
   * `subjectKeysOfSet` of each read, in one statement: the keys of the i-th read at i. Reads may repeat;
   * each gets its own keys.
   */
  async subjectKeysOfEach(reads: readonly SetCheckRead[]): Promise<string[][]> {
    const sets = reads.map((read) => read.set);
    const values = [...columns(sets), reads.map((read) => read.targetKey), reads.map((read) => read.withSets)];
    const keys = reads.map((): string[] => []);
    // WITH ORDINALITY counts from 1.
    for (const row of await this.run<SubjectRow & { n: number }>('checkSets', values)) keys[row.n - 1]!.push(row.subject_key);
    return keys;
  }

  /**
   * Whether `targetKey` is a subject of the set `startKey` through at most `maxDepth` tuples, following
   * subject sets of `namespaceIds` only, in one statement; undefined when the walk met `maxRows`
   * subjects before an answer. A walk that finds the target within `maxRows` subjects has visited fewer
   * distinct sets than that, so the answer is the one a level-by-level walk with that many sets would give.
   */
  async reaches(
    startKey: string,
    targetKey: string,
    maxDepth: number,
    namespaceIds: readonly number[],
    maxRows: number,
  ): Promise<boolean | undefined> {
    const [row] = await this.run<{ found: boolean }>('walkTo', [startKey, targetKey, maxDepth, namespaceIds, maxRows]);
    if (row === undefined) return false;
    return row.found ? true : undefined;
  }

  /**
   * The tuples of `sets` whose subjects are subject sets. Those of a set with an empty relation (every
   * relation of its object) come under that set, each subject once: `relation` is the set's, ''.
   */
  async subjectSetsOf(sets: readonly StoredSet[]): Promise<StoredTuple[]> {
    const { exact, anyRelation } = partition(sets);
    const rows = exact.length > 0 ? await this.read('subjectSetsOf', columns(exact)) : [];
    if (anyRelation.length === 0) return rows;
    const seen = new Set<string>();
    for (const row of await this.read('subjectSetsOfAnyRelation', columns(anyRelation))) {
      const tuple = { ...row, relation: '' };
      const key = tupleKey(tuple);
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push(tuple);
    }
    return rows;
  }

  /** The tuples of `namespaceIds` whose subject is `subjectKey`; undefined when there are more than `limit`. */
  async setsWithSubject(subjectKey: string, namespaceIds: readonly number[], limit: number): Promise<StoredTuple[] | undefined> {
    const rows = await this.read('setsWithSubject', [namespaceIds, subjectKey, limit + 1]);
    return rows.length > limit ? undefined : rows;
  }

  /** Every tuple of `sets`, ordered by namespace, object, relation, subject. */
  async tuplesOf(sets: readonly StoredSet[]): Promise<StoredTuple[]> {
    const { exact, anyRelation } = partition(sets);
    let rows: StoredTuple[] = [];
    if (exact.length === 1) {
      const [set] = exact as [StoredSet];
      rows = await this.read('childrenOfOneSet', [set.namespaceId, set.object, set.relation]);
    } else if (exact.length > 1) rows = await this.read('children', columns(exact));
    if (anyRelation.length === 0) return rows;
    const more = await this.read('childrenAnyRelation', columns(anyRelation));
    const seen = new Set(rows.map(tupleKey));
    return [...rows, ...more.filter((row) => !seen.has(tupleKey(row)))].sort(byStored);
  }

  /** Idempotent: true when the tuple was new, and then announced in the insert's transaction. */
  async insert(tuple: StoredTuple, announce: Announce): Promise<boolean> {
    return withTransaction(this.dataSource, async (transaction) => {
      const result = await transaction.run(this.named.insert, [tuple.namespaceId, tuple.object, tuple.relation, tuple.subjectKey]);
      const inserted = (result.rowCount ?? 0) > 0;
      if (inserted) await announce(transaction);
      return inserted;
    });
  }

  /** Like `insert`, in the caller's transaction, which also carries the announcement when the tuple was new. */
  async insertWithin(manager: EntityManager, tuple: StoredTuple, announce: Announce): Promise<boolean> {
    // TypeORM answers an INSERT with its rows only: RETURNING makes a new row show.
    const rows = (await manager.query(`${this.statements.insert} RETURNING true AS inserted`, [
      tuple.namespaceId,
      tuple.object,
      tuple.relation,
      tuple.subjectKey,
    ])) as unknown[];
    const inserted = rows.length > 0;
    if (inserted) await announce(manager);
    return inserted;
  }

  /**
   * Deletes a subject's tuples in one namespace (served by the subject index), in the caller's
   * transaction, which also carries the announcement when any went.
   */
  async deleteSubjectWithin(manager: EntityManager, namespaceId: number, subjectKey: string, announce: Announce): Promise<number> {
    const text = 'DELETE FROM relation_tuples WHERE namespace_id = $1 AND subject_key = $2';
    // A DELETE through TypeORM's query answers [rows, affected count].
    const [, affected] = (await manager.query(text, [namespaceId, subjectKey])) as [unknown, number];
    if (affected > 0) await announce(manager);
    return affected;
  }

  /**
   * Deletes the tuples of (namespace, object, relation), only those of one subject when given, and
   * announces it in the same transaction when any went: the caller's transaction when one is given.
   */
  async deleteMatching(filter: StoredSet & { readonly subjectKey?: string }, announce: Announce, within?: EntityManager): Promise<number> {
    const values: unknown[] = [filter.namespaceId, filter.object, filter.relation];
    let text = 'DELETE FROM relation_tuples WHERE namespace_id = $1 AND object = $2 AND relation = $3';
    if (filter.subjectKey !== undefined) {
      values.push(filter.subjectKey);
      text += ' AND subject_key = $4';
    }
    if (within !== undefined) {
      // A DELETE through TypeORM's query answers [rows, affected count].
      const [, affected] = (await within.query(text, values)) as [unknown, number];
      if (affected > 0) await announce(within);
      return affected;
    }
    return withTransaction(this.dataSource, async (transaction) => {
      const deleted = (await transaction.query(text, values)).rowCount ?? 0;
      if (deleted > 0) await announce(transaction);
      return deleted;
    });
  }

  /**
   * Inserts, then deletes (Keto's order), in one transaction: all or nothing. Rows go in key order so
   * concurrent patches lock in the same order; a deadlock or serialization failure is retried.
   * A change is announced in the same transaction. Returns how many rows changed.
   */
  async transact(inserts: readonly StoredTuple[], deletes: readonly StoredTuple[], announce: Announce): Promise<number> {
    const sortedInserts = [...inserts].sort(byStored);
    const sortedDeletes = [...deletes].sort(byStored);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await withTransaction(this.dataSource, async (transaction) => {
          let changed = 0;
          if (sortedInserts.length > 0)
            changed += (await transaction.query(this.statements.insertMany, tupleColumns(sortedInserts))).rowCount ?? 0;
          if (sortedDeletes.length > 0)
            changed += (await transaction.query(this.statements.deleteMany, tupleColumns(sortedDeletes))).rowCount ?? 0;
          if (changed > 0) await announce(transaction);
          return changed;
        });
      } catch (error) {
        if (attempt >= ATTEMPTS || !RETRYABLE.has(sqlStateOf(error) ?? '')) throw error;
      }
    }
  }

  /** Up to `limit` tuples matching `filter`, after `after`, in (object, relation, subject) order. */
  async findPage(filter: StoredFilter, after: PageCursor | undefined, limit: number): Promise<StoredTuple[]> {
    const values: unknown[] = [filter.namespaceId];
    const where = ['namespace_id = $1'];
    const equal = (column: string, value: string | undefined): void => {
      if (value === undefined) return;
      values.push(value);
      where.push(`${column} = $${values.length}`);
    };
    equal('object', filter.object);
    equal('relation', filter.relation);
    equal('subject_key', filter.subjectKey);
    if (after !== undefined) {
      values.push(after.object, after.relation, after.subjectKey);
      const n = values.length;
      // The whole key as one row value: an index range on the primary key.
      where.push(`(namespace_id, object, relation, subject_key) > ($1, $${n - 2}, $${n - 1}, $${n})`);
    }
    values.push(limit);
    const rows: pg.QueryResultRow[] = await this.dataSource.query(this.statements.page(where.join(' AND '), `$${values.length}`), values);
    return rows.map(this.tuples.toEntity);
  }

  private async run<T extends pg.QueryResultRow>(name: NamedKey, values: unknown[]): Promise<T[]> {
    const result = await runNamed<T>(this.dataSource, this.named[name], values);
    return result.rows;
  }

  /** Whole tuples, as the entity maps their rows. */
  private async read(name: NamedKey, values: unknown[]): Promise<StoredTuple[]> {
    return (await this.run(name, values)).map(this.tuples.toEntity);
  }
}

function partition(sets: readonly StoredSet[]): { exact: StoredSet[]; anyRelation: StoredSet[] } {
  const exact: StoredSet[] = [];
  const anyRelation: StoredSet[] = [];
  for (const set of sets) (set.relation === '' ? anyRelation : exact).push(set);
  return { exact, anyRelation };
}

function columns(sets: readonly StoredSet[]): [number[], string[], string[]] {
  return [sets.map((set) => set.namespaceId), sets.map((set) => set.object), sets.map((set) => set.relation)];
}

function tupleColumns(tuples: readonly StoredTuple[]): [number[], string[], string[], string[]] {
  return [...columns(tuples), tuples.map((tuple) => tuple.subjectKey)];
}

function tupleKey(tuple: StoredTuple): string {
  return `${tuple.namespaceId}\u0000${tuple.object}\u0000${tuple.relation}\u0000${tuple.subjectKey}`;
}

/** Byte order, as the "C" collation sorts. */
function compare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function byStored(a: StoredTuple, b: StoredTuple): number {
  return (
    a.namespaceId - b.namespaceId || compare(a.object, b.object) || compare(a.relation, b.relation) || compare(a.subjectKey, b.subjectKey)
  );
}
