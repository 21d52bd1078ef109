import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChangeNotifier } from '../../src/database/change-notifier.js';
import { sqlStateOf } from '../../src/database/sql-state.js';
import { TUPLES_CHANGED } from '../../src/tuples/cache/check-cache.js';
import { SetCheckBatchReader } from '../../src/tuples/storage/set-check-batch.reader.js';
import type { SetCheckRead } from '../../src/tuples/storage/stored-tuple.js';
import { TuplesRepository } from '../../src/tuples/tuples.repository.js';
import { bootApp, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import { eventually } from '../support/tuples.js';
import { seededRandom } from '../support/seeded-random.js';

/**
 * Single-set check reads gathered into one statement (SetCheckBatchReader) against real PostgreSQL:
 * each caller gets what its own statement gives, concurrent checks share statements, and a failure
 * reaches only the callers it concerns.
 */

const NAMESPACES = JSON.stringify([
  { name: 'files', id: 1 },
  { name: 'groups', id: 2 },
]);

type Statements = { run: (name: string, values: unknown[]) => Promise<unknown[]> };

const sorted = (keys: readonly string[]): string[] => [...keys].sort();

let app: TestApp;
let reader: SetCheckBatchReader;
let repository: TuplesRepository;

beforeAll(async () => {
  app = await bootApp({ NAMESPACES, TUPLES_CACHE_SIZE: '0' });
  reader = app.running.app.get(SetCheckBatchReader);
  repository = app.running.app.get(TuplesRepository);
  // Objects o0..o11 of both namespaces, relations viewer and member: subject ids, subject sets of the
  // same relation and of others (outside a set read's range), and sets that hold one another. o12..o14
  // have no rows.
  await queryDatabase(
    app.databaseUrl,
    `INSERT INTO relation_tuples (namespace_id, object, relation, subject_key)
     SELECT ns, 'o' || o, rel, subject
     FROM generate_series(1, 2) AS ns, generate_series(0, 11) AS o, unnest(ARRAY['viewer', 'member']) AS rel,
       LATERAL unnest(ARRAY[
         'i:u' || (o % 5), 'i:u' || ((o + ns) % 7), 's:2:o' || (o % 4) || '#member',
         's:2:o' || ((o + 1) % 6) || '#' || rel, 's:1:o' || (o % 3) || '#viewer'
       ]) AS subject
     WHERE (o + ns) % 5 <> 0 OR rel = 'viewer'
     ON CONFLICT DO NOTHING`,
  );
});

afterAll(async () => {
  await app.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('reads through the batcher', () => {
  it('give each caller exactly what its own statement gives, for random sets, targets and duplicates', async () => {
    const next = seededRandom(20261126);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const targets = ['i:u0', 'i:u3', 'i:u6', 'i:nobody', 's:2:o1#member', 's:2:o2#viewer', 's:1:o0#viewer', ''];
    const reads: SetCheckRead[] = [];
    for (let index = 0; index < 300; index += 1) {
      const set = { namespaceId: pick([1, 2, 3]), object: `o${Math.floor(next() * 15)}`, relation: pick(['viewer', 'member', 'owner']) };
      reads.push({ set, targetKey: pick(targets), withSets: next() < 0.7 });
      // The same set again in the same batch: with the same target, and with another.
      if (next() < 0.15) reads.push({ ...reads.at(-1)! });
      if (next() < 0.15) reads.push({ set, targetKey: pick(targets), withSets: next() < 0.5 });
    }
    const expected: string[][] = [];
    for (const read of reads) expected.push(sorted(await repository.subjectKeysOfSet(read)));
    expect(expected.some((keys) => keys.length === 0)).toBe(true);
    expect(expected.some((keys) => keys.length > 1)).toBe(true);

    const statements = vi.spyOn(repository as unknown as Statements, 'run');
    const answers = await Promise.all(reads.map((read) => reader.read(read)));
    expect(answers.map(sorted)).toEqual(expected);
    const names = statements.mock.calls.map(([name]) => name);
    expect(names).toContain('checkSets');
    expect(names.length).toBeLessThan(reads.length / 50);
  });

  it('give each caller of a subject-set read exactly the rows its own statement gives, duplicates included', async () => {
    const next = seededRandom(20261127);
    const sets = Array.from({ length: 200 }, () => ({
      namespaceId: [1, 2, 3][Math.floor(next() * 3)]!,
      object: `o${Math.floor(next() * 15)}`,
      relation: ['viewer', 'member', 'owner'][Math.floor(next() * 3)]!,
    }));
    const byKey = (rows: readonly { subjectKey: string; object: string; relation: string }[]): string[] =>
      rows.map((row) => `${row.object}#${row.relation}@${row.subjectKey}`).sort();
    const expected: string[][] = [];
    for (const set of sets) expected.push(byKey(await repository.subjectSetsOf([set])));
    expect(expected.some((rows) => rows.length === 0)).toBe(true);
    expect(expected.some((rows) => rows.length > 1)).toBe(true);

    const statements = vi.spyOn(repository as unknown as Statements, 'run');
    const answers = await Promise.all(sets.map((set) => reader.subjectSetsOf(set)));
    expect(answers.map(byKey)).toEqual(expected);
    expect(statements.mock.calls.length).toBeLessThan(sets.length / 50);
  });

  it('see a row written just before the read was asked for: nothing is kept between reads', async () => {
    const read: SetCheckRead = { set: { namespaceId: 1, object: 'fresh', relation: 'viewer' }, targetKey: 'i:ann', withSets: true };
    expect(await Promise.all([reader.read(read), reader.read({ ...read, targetKey: 'i:ben' })])).toEqual([[], []]);
    await queryDatabase(app.databaseUrl, `INSERT INTO relation_tuples VALUES (1, 'fresh', 'viewer', 'i:ann')`);
    expect(await Promise.all([reader.read(read), reader.read(read)])).toEqual([['i:ann'], ['i:ann']]);
  });

  it('fail only the bad read when a batch fails, after retrying read by read', async () => {
    const good = (object: string): SetCheckRead => ({
      set: { namespaceId: 1, object, relation: 'viewer' },
      targetKey: 'i:u1',
      withSets: true,
    });
    // A NUL byte is no valid text for PostgreSQL: the whole statement fails (22021), as the read alone does.
    const bad: SetCheckRead = { ...good('o1'), targetKey: 'i:\u0000' };
    const reads = [good('o1'), good('o2'), bad, good('o6')];
    const expected = await Promise.all(reads.slice(0, 2).map((read) => repository.subjectKeysOfSet(read)));
    const statements = vi.spyOn(repository as unknown as Statements, 'run');
    const results = await Promise.allSettled(reads.map((read) => reader.read(read)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(results.slice(0, 2).map((result) => (result.status === 'fulfilled' ? result.value : undefined))).toEqual(expected);
    expect(sqlStateOf((results[2] as PromiseRejectedResult).reason)).toBe('22021');
    expect(statements.mock.calls.map(([name]) => name)).toEqual(['checkSets', 'checkOneSet', 'checkOneSet', 'checkOneSet', 'checkOneSet']);
  });
});

describe('uncached checks', () => {
  const check = (object: string, subject: string): Promise<{ status: number; headers: Headers }> =>
    app.admin.get(`/check?${new URLSearchParams({ namespace: 'files', object, relation: 'viewer', subject }).toString()}`);

  it('run fewer statements than checks when they arrive together, each with its own answer', async () => {
    let heard = 0;
    app.running.app.get(ChangeNotifier).subscribe(TUPLES_CHANGED, () => {
      heard += 1;
    });
    const tuple = (namespace: string, object: string, relation: string, subject: string) => ({
      action: 'insert',
      relation_tuple: { namespace, object, relation, subject },
    });
    const deltas = [
      ...Array.from({ length: 24 }, (_, index) => tuple('files', `doc${index}`, 'viewer', index % 2 === 0 ? 'groups:crew#member' : 'mia')),
      tuple('groups', 'crew', 'member', 'chief'),
    ];
    expect((await app.admin.patch('/relation-tuples', { json: deltas })).status).toBe(204);
    // Its own write comes back over LISTEN and drops the group memo once more: warm it after that.
    expect(await eventually(async () => heard >= 2)).toBe(true);
    expect((await check('doc0', 'chief')).status).toBe(200);

    const objects = Array.from({ length: 24 }, (_, index) => `doc${index}`);
    let asked = 0;
    const read = reader.read.bind(reader);
    vi.spyOn(reader, 'read').mockImplementation((entry) => {
      asked += 1;
      return read(entry);
    });
    // A slow database, so that the test does not depend on how fast requests arrive: the first
    // statement answers only once every check has asked for its read.
    const run = (repository as unknown as Statements).run.bind(repository);
    const statements = vi.spyOn(repository as unknown as Statements, 'run').mockImplementation(async (name, values) => {
      if (statements.mock.calls.length === 1) await eventually(async () => asked === objects.length);
      return run(name, values);
    });
    const statuses = await Promise.all(objects.map(async (object) => (await check(object, 'chief')).status));
    expect(statuses).toEqual(objects.map((_, index) => (index % 2 === 0 ? 200 : 403)));
    expect(statements.mock.calls.length).toBeLessThan(objects.length);
    expect(statements.mock.calls.map(([name]) => name)).toContain('checkSets');
  });

  it('answer 503 with Retry-After, every one, while the database is unreachable', async () => {
    const refused = (): Error =>
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' });
    const statements = vi.spyOn(repository as unknown as Statements, 'run').mockImplementation(() => Promise.reject(refused()));
    const responses = await Promise.all(Array.from({ length: 12 }, (_, index) => check(`down${index}`, 'chief')));
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 503));
    expect(responses.every((response) => response.headers.get('retry-after') !== null)).toBe(true);
    expect(statements).toHaveBeenCalled();
  });
});
