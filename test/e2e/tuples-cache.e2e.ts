import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChangeNotifier } from '../../src/database/change-notifier.js';
import { TUPLES_CHANGED } from '../../src/tuples/cache/check-cache.js';
import { TuplesRepository } from '../../src/tuples/tuples.repository.js';
import { bootApp, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import type { HttpClient } from '../support/http.js';
import { eventually, tupleAnnouncementsSettled } from '../support/tuples.js';

/**
 * The check cache and its invalidation (same instance, and two instances on one database through
 * LISTEN/NOTIFY), and durability across a restart. Rows are sometimes written straight into the
 * table, bypassing the service, to tell a cached answer from a fresh one.
 */

const NAMESPACES = JSON.stringify([
  { name: 'files', id: 1 },
  { name: 'groups', id: 2 },
]);

const params = (namespace: string, object: string, relation: string, subject: string): string =>
  new URLSearchParams({ namespace, object, relation, subject }).toString();

async function allowed(client: HttpClient, object: string, subject: string, maxDepth?: number): Promise<boolean> {
  const depth = maxDepth === undefined ? '' : `&max-depth=${maxDepth}`;
  const response = await client.get<{ allowed: boolean }>(`/check?${params('files', object, 'viewer', subject)}${depth}`);
  expect([200, 403]).toContain(response.status);
  return response.body.allowed;
}

async function write(client: HttpClient, namespace: string, object: string, relation: string, subject: string): Promise<void> {
  const response = await client.put('/relation-tuples', { json: { namespace, object, relation, subject } });
  expect(response.status, response.text).toBe(201);
}

/** Inserts a row behind the service's back: no invalidation is announced. */
async function insertDirectly(url: string, object: string, subject: string): Promise<void> {
  await queryDatabase(url, `INSERT INTO relation_tuples (namespace_id, object, relation, subject_key) VALUES (1, $1, 'viewer', $2)`, [
    object,
    `i:${subject}`,
  ]);
}

/** Inserts any row behind the service's back: no invalidation is announced. */
async function insertRowDirectly(url: string, namespaceId: number, object: string, relation: string, subjectKey: string): Promise<void> {
  await queryDatabase(url, `INSERT INTO relation_tuples (namespace_id, object, relation, subject_key) VALUES ($1, $2, $3, $4)`, [
    namespaceId,
    object,
    relation,
    subjectKey,
  ]);
}

async function insertAll(client: HttpClient, texts: readonly string[]): Promise<void> {
  const deltas = texts.map((text) => {
    const [set, subject] = text.split('@') as [string, string];
    const [namespace, rest] = set.split(':') as [string, string];
    const [object, relation] = rest.split('#') as [string, string];
    return { action: 'insert', relation_tuple: { namespace, object, relation, subject } };
  });
  expect((await client.patch('/relation-tuples', { json: deltas })).status).toBe(204);
}

/**
 * How many relation-tuple drops `app` has heard since this was called: a write of its own twice (at
 * once, then back over LISTEN), another instance's once. A test that asserts what stays remembered
 * waits for the drops of its set-up writes first.
 */
function dropsHeardBy(app: TestApp): () => number {
  let heard = 0;
  app.running.app.get(ChangeNotifier).subscribe(TUPLES_CHANGED, () => {
    heard += 1;
  });
  return () => heard;
}

describe('one instance', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await bootApp({ NAMESPACES });
  });

  afterAll(async () => {
    await app.close();
  });

  it('answers repeated checks from its cache', async () => {
    expect(await allowed(app.admin, 'cached', 'ann')).toBe(false);
    await insertDirectly(app.databaseUrl, 'cached', 'ann');
    expect(await allowed(app.admin, 'cached', 'ann')).toBe(false);
  });

  it('drops the cache on every write before acknowledging it: PUT, DELETE, PATCH', async () => {
    expect(await allowed(app.admin, 'doc', 'ben')).toBe(false);
    await write(app.admin, 'files', 'doc', 'viewer', 'ben');
    expect(await allowed(app.admin, 'doc', 'ben')).toBe(true);

    expect((await app.admin.delete(`/relation-tuples?${params('files', 'doc', 'viewer', 'ben')}`)).status).toBe(204);
    expect(await allowed(app.admin, 'doc', 'ben')).toBe(false);

    const patch = await app.admin.patch('/relation-tuples', {
      json: [{ action: 'insert', relation_tuple: { namespace: 'files', object: 'doc', relation: 'viewer', subject: 'ben' } }],
    });
    expect(patch.status).toBe(204);
    expect(await allowed(app.admin, 'doc', 'ben')).toBe(true);
  });

  it('drops answers that depend on a changed subject set far from the checked tuple', async () => {
    await write(app.admin, 'files', 'far', 'viewer', 'groups:outer#member');
    await write(app.admin, 'groups', 'outer', 'member', 'groups:inner#member');
    expect(await allowed(app.admin, 'far', 'cleo')).toBe(false);
    await write(app.admin, 'groups', 'inner', 'member', 'cleo');
    expect(await allowed(app.admin, 'far', 'cleo')).toBe(true);
    expect((await app.admin.delete(`/relation-tuples?${params('groups', 'inner', 'member', 'cleo')}`)).status).toBe(204);
    expect(await allowed(app.admin, 'far', 'cleo')).toBe(false);
  });

  it('keeps the cache when a write changes nothing', async () => {
    // The tuple exists before the API writes it, so that write finds it and changes nothing.
    await insertDirectly(app.databaseUrl, 'steady', 'dan');
    await tupleAnnouncementsSettled(app, 'files', 1);
    expect(await allowed(app.admin, 'steady', 'eve')).toBe(false);
    await insertDirectly(app.databaseUrl, 'steady', 'eve');
    await write(app.admin, 'files', 'steady', 'viewer', 'dan');
    expect(await allowed(app.admin, 'steady', 'eve')).toBe(false);
  });
});

describe('without a cache (TUPLES_CACHE_SIZE=0)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await bootApp({ NAMESPACES, TUPLES_CACHE_SIZE: '0' });
  });

  afterAll(async () => {
    await app.close();
  });

  it('reads the database on every check', async () => {
    expect(await allowed(app.admin, 'uncached', 'fay')).toBe(false);
    await insertDirectly(app.databaseUrl, 'uncached', 'fay');
    expect(await allowed(app.admin, 'uncached', 'fay')).toBe(true);
  });
});

describe('the group memo, with the check cache off', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await bootApp({ NAMESPACES, TUPLES_CACHE_SIZE: '0' });
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await app.close();
  });

  it('sees a write in the middle of a three-hop chain at once, and its delete', async () => {
    await insertAll(app.admin, ['files:report#viewer@groups:team#member', 'groups:dept#member@boss']);
    expect(await allowed(app.admin, 'report', 'boss')).toBe(false);
    await write(app.admin, 'groups', 'team', 'member', 'groups:dept#member');
    expect(await allowed(app.admin, 'report', 'boss')).toBe(true);
    const middle = params('groups', 'team', 'member', 'groups:dept#member');
    expect((await app.admin.delete(`/relation-tuples?${middle}`)).status).toBe(204);
    expect(await allowed(app.admin, 'report', 'boss')).toBe(false);
  });

  it('answers from what it remembers: a row stored behind its back stays unseen until a write', async () => {
    const heard = dropsHeardBy(app);
    await insertAll(app.admin, ['files:lab#viewer@groups:lab-team#member', 'groups:lab-team#member@groups:lab-dept#member']);
    expect(await eventually(async () => heard() >= 2)).toBe(true);
    expect(await allowed(app.admin, 'lab', 'rita')).toBe(false);
    await insertRowDirectly(app.databaseUrl, 2, 'lab-dept', 'member', 'i:rita');
    expect(await allowed(app.admin, 'lab', 'rita')).toBe(false);
    await write(app.admin, 'files', 'elsewhere', 'viewer', 'sam');
    expect(await allowed(app.admin, 'lab', 'rita')).toBe(true);
  });

  it('runs one statement, the read of the checked set, for a warm three-hop check', async () => {
    const heard = dropsHeardBy(app);
    await insertAll(app.admin, [
      'files:one#viewer@groups:crew#member',
      'files:two#viewer@groups:crew#member',
      'groups:crew#member@groups:unit#member',
      'groups:unit#member@chief',
    ]);
    expect(await eventually(async () => heard() >= 2)).toBe(true);
    expect(await allowed(app.admin, 'one', 'chief')).toBe(true);
    expect(await allowed(app.admin, 'one', 'nobody')).toBe(false);
    const repository = app.running.app.get(TuplesRepository) as unknown as { run: (name: string, values: unknown[]) => Promise<unknown[]> };
    const statements = vi.spyOn(repository, 'run');
    expect(await allowed(app.admin, 'two', 'chief')).toBe(true);
    expect(await allowed(app.admin, 'two', 'nobody')).toBe(false);
    expect(statements.mock.calls.map(([name]) => name)).toEqual(['checkOneSet', 'checkOneSet']);
    statements.mockRestore();
  });
});

describe('without the group memo (TUPLES_SET_CACHE_SIZE=0)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await bootApp({ NAMESPACES, TUPLES_CACHE_SIZE: '0', TUPLES_SET_CACHE_SIZE: '0' });
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await app.close();
  });

  it('walks the graph in one recursive statement, and sees rows stored behind its back', async () => {
    await insertAll(app.admin, ['files:plain#viewer@groups:plain-team#member', 'groups:plain-team#member@groups:plain-dept#member']);
    expect(await allowed(app.admin, 'plain', 'tess')).toBe(false);
    await insertRowDirectly(app.databaseUrl, 2, 'plain-dept', 'member', 'i:tess');
    const repository = app.running.app.get(TuplesRepository) as unknown as { run: (name: string, values: unknown[]) => Promise<unknown[]> };
    const statements = vi.spyOn(repository, 'run');
    expect(await allowed(app.admin, 'plain', 'tess')).toBe(true);
    expect(await allowed(app.admin, 'plain', 'tess', 2)).toBe(false);
    expect(statements.mock.calls.map(([name]) => name)).toEqual(['walkTo', 'walkTo']);
    statements.mockRestore();
  });
});

describe('two instances on one database', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await bootApp({ NAMESPACES });
    second = await bootApp({ NAMESPACES }, { databaseUrl: first.databaseUrl });
  });

  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('invalidates the other instance after a write', async () => {
    expect(await allowed(second.admin, 'shared', 'gus')).toBe(false);
    expect(await allowed(second.admin, 'shared', 'hal')).toBe(false);
    await insertDirectly(first.databaseUrl, 'shared', 'hal');
    expect(await allowed(second.admin, 'shared', 'hal')).toBe(false);

    await write(first.admin, 'files', 'shared', 'viewer', 'gus');
    expect(await allowed(first.admin, 'shared', 'gus')).toBe(true);
    expect(await eventually(() => allowed(second.admin, 'shared', 'gus'))).toBe(true);
    // The whole cache went, also the answer cached before the row written behind its back.
    expect(await allowed(second.admin, 'shared', 'hal')).toBe(true);
  });

  it('invalidates both ways, for deletes and patches too', async () => {
    expect(await allowed(first.admin, 'shared', 'gus')).toBe(true);
    expect(await allowed(second.admin, 'shared', 'ida')).toBe(false);
    expect((await second.admin.delete(`/relation-tuples?${params('files', 'shared', 'viewer', 'gus')}`)).status).toBe(204);
    expect(await eventually(async () => !(await allowed(first.admin, 'shared', 'gus')))).toBe(true);

    const patch = await first.admin.patch('/relation-tuples', {
      json: [{ action: 'insert', relation_tuple: { namespace: 'files', object: 'shared', relation: 'viewer', subject: 'ida' } }],
    });
    expect(patch.status).toBe(204);
    expect(await eventually(() => allowed(second.admin, 'shared', 'ida'))).toBe(true);
  });
});

describe('two instances on one database, the check cache off', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await bootApp({ NAMESPACES, TUPLES_CACHE_SIZE: '0' });
    second = await bootApp({ NAMESPACES, TUPLES_CACHE_SIZE: '0' }, { databaseUrl: first.databaseUrl });
  });

  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it("drops the other instance's group memo after a write, and after a delete", async () => {
    const heard = dropsHeardBy(second);
    await insertAll(first.admin, ['files:plan#viewer@groups:squad#member', 'groups:division#member@uma']);
    expect(await eventually(async () => heard() >= 1)).toBe(true);
    expect(await allowed(second.admin, 'plan', 'uma')).toBe(false);
    // Behind the service's back: the second instance remembers the squad without subject sets.
    await insertRowDirectly(first.databaseUrl, 2, 'squad', 'member', 's:2:division#member');
    expect(await allowed(second.admin, 'plan', 'uma')).toBe(false);

    await write(first.admin, 'files', 'unrelated', 'viewer', 'vic');
    expect(await eventually(() => allowed(second.admin, 'plan', 'uma'))).toBe(true);
    const middle = params('groups', 'squad', 'member', 'groups:division#member');
    expect((await first.admin.delete(`/relation-tuples?${middle}`)).status).toBe(204);
    expect(await eventually(async () => !(await allowed(second.admin, 'plan', 'uma')))).toBe(true);
  });
});

describe('durability', () => {
  it('keeps acknowledged writes across a restart', async () => {
    const before = await bootApp({ NAMESPACES });
    const url = before.databaseUrl;
    try {
      await write(before.admin, 'files', 'kept', 'viewer', 'groups:keepers#member');
      await write(before.admin, 'groups', 'keepers', 'member', 'jon');
      const patch = await before.admin.patch('/relation-tuples', {
        json: [
          { action: 'insert', relation_tuple: { namespace: 'files', object: 'kept', relation: 'viewer', subject: 'kim' } },
          { action: 'insert', relation_tuple: { namespace: 'files', object: 'gone', relation: 'viewer', subject: 'kim' } },
        ],
      });
      expect(patch.status).toBe(204);
      expect((await before.admin.delete(`/relation-tuples?${params('files', 'gone', 'viewer', 'kim')}`)).status).toBe(204);
    } finally {
      await before.close();
    }

    // Renamed namespaces keep their tuples: they are stored by id.
    const renamed = JSON.stringify([
      { name: 'documents', id: 1 },
      { name: 'teams', id: 2 },
    ]);
    const after = await bootApp({ NAMESPACES: renamed }, { databaseUrl: url });
    try {
      const check = (object: string, subject: string): Promise<{ status: number }> =>
        after.admin.get(`/check?${new URLSearchParams({ namespace: 'documents', object, relation: 'viewer', subject }).toString()}`);
      expect((await check('kept', 'jon')).status).toBe(200);
      expect((await check('kept', 'kim')).status).toBe(200);
      expect((await check('gone', 'kim')).status).toBe(403);
      const listed = await after.admin.get<{ relation_tuples: unknown[] }>('/relation-tuples?namespace=documents&object=kept');
      expect(listed.body.relation_tuples).toEqual([
        { namespace: 'documents', object: 'kept', relation: 'viewer', subject: 'kim' },
        { namespace: 'documents', object: 'kept', relation: 'viewer', subject: 'teams:keepers#member' },
      ]);
    } finally {
      await after.close();
    }
  });
});
