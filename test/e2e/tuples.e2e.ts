import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import type { HttpResponse } from '../support/http.js';

/** The relation-tuple API over real HTTP: every endpoint, status and limit (see docs/tuples.md). */

const NAMESPACES = JSON.stringify([
  { name: 'files', id: 1 },
  { name: 'groups', id: 2 },
  { name: 'folders', id: 3 },
]);

interface Tuple {
  namespace: string;
  object: string;
  relation: string;
  subject: string;
}

interface AccessError {
  id: string;
  code: number;
  reason: string;
  request: string;
  details: Array<Record<string, unknown>>;
}

interface Page {
  relation_tuples: Tuple[];
  next_page_token: string;
}

interface Tree {
  type: string;
  subject: string;
  children?: Tree[];
}

let app: TestApp;

beforeAll(async () => {
  app = await bootApp({ NAMESPACES, TUPLES_MAX_DEPTH: '5' });
});

afterAll(async () => {
  await app.close();
});

function tuple(text: string): Tuple {
  const at = text.indexOf('@');
  const [namespace, rest] = text.slice(0, at).split(':') as [string, string];
  const [object, relation] = rest.split('#') as [string, string];
  return { namespace, object, relation, subject: text.slice(at + 1) };
}

async function put(...texts: string[]): Promise<void> {
  for (const text of texts) {
    const response = await app.admin.put('/relation-tuples', { json: tuple(text) });
    expect(response.status, `${text}: ${response.text}`).toBe(201);
  }
}

function query(values: object): string {
  return new URLSearchParams(Object.entries(values).map(([key, value]): [string, string] => [key, String(value)])).toString();
}

async function check(text: string, maxDepth?: number): Promise<HttpResponse<{ allowed: boolean }>> {
  const params: Record<string, string | number> = { ...tuple(text) };
  if (maxDepth !== undefined) params['max-depth'] = maxDepth;
  return app.admin.get(`/check?${query(params)}`);
}

async function allowed(text: string, maxDepth?: number): Promise<boolean> {
  const response = await check(text, maxDepth);
  expect([200, 403], response.text).toContain(response.status);
  expect(response.body).toEqual({ allowed: response.status === 200 });
  return response.body.allowed;
}

async function listAll(params: Record<string, string | number>): Promise<{ tuples: Tuple[]; pages: number }> {
  const tuples: Tuple[] = [];
  let token = '';
  let pages = 0;
  do {
    const response = await app.admin.get<Page>(`/relation-tuples?${query({ ...params, ...(token === '' ? {} : { page_token: token }) })}`);
    expect(response.status, response.text).toBe(200);
    tuples.push(...response.body.relation_tuples);
    token = response.body.next_page_token;
    pages += 1;
  } while (token !== '' && pages < 100);
  return { tuples, pages };
}

function expectError(response: HttpResponse, status: number, id: string): void {
  expect(response.status, response.text).toBe(status);
  const body = response.body as AccessError;
  expect(body).toMatchObject({ id, code: status });
  expect(body.request).toBe(response.headers.get('x-request-id'));
  expect(Array.isArray(body.details)).toBe(true);
}

describe('PUT /relation-tuples', () => {
  it('answers 201 with the tuple and a Location that finds it', async () => {
    const body = tuple('files:report.pdf#owner@alice');
    const response = await app.admin.put<Tuple>('/relation-tuples', { json: body });
    expect(response.status).toBe(201);
    expect(response.body).toEqual(body);
    const location = response.headers.get('location');
    expect(location).toBe('/relation-tuples?namespace=files&object=report.pdf&relation=owner&subject=alice');
    const found = await app.admin.get<Page>(location!);
    expect(found.body).toEqual({ relation_tuples: [body], next_page_token: '' });
  });

  it('stores a subject set as its subject string', async () => {
    const body = tuple('files:report.pdf#viewer@groups:auditors#member');
    const response = await app.admin.put<Tuple>('/relation-tuples', { json: body });
    expect(response.status).toBe(201);
    expect(response.body).toEqual(body);
  });

  it('is idempotent: writing an existing tuple keeps one row', async () => {
    await put('files:twice#owner@bob', 'files:twice#owner@bob', 'files:twice#owner@bob');
    const rows = await queryDatabase(app.databaseUrl, `SELECT 1 FROM relation_tuples WHERE object = 'twice'`);
    expect(rows).toHaveLength(1);
  });

  it('answers 404 for an unknown namespace, of the tuple or of its subject set', async () => {
    expectError(await app.admin.put('/relation-tuples', { json: tuple('ghosts:x#owner@alice') }), 404, 'unknown_namespace');
    expectError(await app.admin.put('/relation-tuples', { json: tuple('files:x#owner@ghosts:g#member') }), 404, 'unknown_namespace');
  });

  it.each([
    ['two #', 'a#b#c'],
    ['no namespace', 'team#member'],
    ['two :', 'groups:a:b#member'],
    ['empty object', 'groups:#member'],
    ['empty namespace', ':g#member'],
    ['empty', ''],
  ])('answers 400 for a malformed subject (%s)', async (_case, subject) => {
    const response = await app.admin.put('/relation-tuples', { json: { ...tuple('files:x#owner@a'), subject } });
    expectError(response, 400, 'malformed_subject');
    expect((response.body as AccessError).details).toEqual([{ field: 'subject' }]);
  });

  it('answers 400 for a missing, empty or non-string field, an unknown field, or a body that is not an object', async () => {
    const base = tuple('files:x#owner@a');
    for (const json of [
      { namespace: 'files', object: 'x', relation: 'owner' },
      { ...base, relation: '' },
      { ...base, object: 7 },
      { ...base, subject: null },
      { ...base, extra: 'no' },
      [base],
      'files:x#owner@a',
    ]) {
      const response = await app.admin.put('/relation-tuples', { json });
      expect(response.status, JSON.stringify(json)).toBe(400);
      expect(response.body).toMatchObject({ code: 400 });
    }
  });

  it('answers 400 for bad JSON and 415 for another content type', async () => {
    const broken = await app.admin.put('/relation-tuples', { rawBody: '{"namespace": ', headers: { 'content-type': 'application/json' } });
    expectError(broken, 400, 'invalid_request');
    const text = await app.admin.put('/relation-tuples', { rawBody: 'files:x#owner@a', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
  });

  it('answers 400, never 500, for NUL, CR/LF, lone surrogates, reserved characters and long strings (S49)', async () => {
    const base = tuple('files:x#owner@a');
    const cases: Array<[Partial<Tuple>, string]> = [
      [{ object: 'a\u0000b' }, 'invalid_relation_tuple'],
      [{ object: 'a\r\nX-Injected: 1' }, 'invalid_relation_tuple'],
      [{ relation: 'owner\n' }, 'invalid_relation_tuple'],
      [{ subject: 'alice\u0000' }, 'malformed_subject'],
      [{ subject: 'a@b.c\r\nBcc: x' }, 'malformed_subject'],
      [{ subject: 'bad\ud800' }, 'malformed_subject'],
      [{ namespace: 'files\u0000' }, 'invalid_relation_tuple'],
      [{ object: 'o'.repeat(65) }, 'invalid_relation_tuple'],
      [{ relation: 'r'.repeat(10_000) }, 'invalid_relation_tuple'],
      [{ subject: 's'.repeat(257) }, 'malformed_subject'],
      [{ subject: 'x'.repeat(10_000) }, 'malformed_subject'],
      [{ namespace: 'n'.repeat(10_000) }, 'invalid_relation_tuple'],
      [{ subject: `groups:${'g'.repeat(65)}#member` }, 'malformed_subject'],
      [{ object: 'a:b' }, 'invalid_relation_tuple'],
      [{ object: 'a#b' }, 'invalid_relation_tuple'],
      [{ relation: 'a@b' }, 'invalid_relation_tuple'],
    ];
    for (const [change, id] of cases) {
      const response = await app.admin.put('/relation-tuples', { json: { ...base, ...change } });
      expect(response.status, JSON.stringify(change).slice(0, 80)).toBe(400);
      expect((response.body as AccessError).id).toBe(id);
    }
  });

  it('accepts the longest allowed values, multi-byte characters and subject ids with @ and :', async () => {
    const longest = { namespace: 'files', object: 'ö'.repeat(64), relation: '🙂'.repeat(64), subject: 'ü'.repeat(256) };
    expect((await app.admin.put('/relation-tuples', { json: longest })).status).toBe(201);
    expect(await allowed(`files:${longest.object}#${longest.relation}@${longest.subject}`)).toBe(true);
    await put('files:mail#owner@user:42@example.com');
    expect(await allowed('files:mail#owner@user:42@example.com')).toBe(true);
  });

  it('stores SQL metacharacters as plain data and never answers 500 (S47)', async () => {
    const sneaky = [
      "x'; DROP TABLE relation_tuples; --",
      'a" OR "1"="1',
      '\\x27 OR 1=1',
      '%_*',
      "Robert'); DELETE FROM relation_tuples;--",
    ];
    for (const value of sneaky) {
      const response = await app.admin.put('/relation-tuples', {
        json: { namespace: 'files', object: value, relation: 'owner', subject: value },
      });
      expect(response.status, value).toBe(201);
      expect(await allowed(`files:${value}#owner@${value}`)).toBe(true);
    }
    for (const namespace of ["files' OR '1'='1", 'files;--', 'files%']) {
      const response = await app.admin.get(`/relation-tuples?${query({ namespace })}`);
      expect([400, 404], namespace).toContain(response.status);
      expect((await check(`${namespace}:x#owner@a`)).status).not.toBe(500);
    }
    const listed = await listAll({ namespace: 'files', subject: sneaky[0]! });
    expect(listed.tuples).toEqual([{ namespace: 'files', object: sneaky[0], relation: 'owner', subject: sneaky[0] }]);
    expect(await queryDatabase(app.databaseUrl, 'SELECT count(*) FROM relation_tuples')).not.toHaveLength(0);
  });
});

describe('GET and POST /check', () => {
  beforeAll(async () => {
    await put('files:plan#viewer@carol', 'files:plan#editor@dave');
  });

  it('answers 200 {allowed: true} for a stored tuple and 403 {allowed: false} otherwise', async () => {
    const yes = await check('files:plan#viewer@carol');
    expect(yes.status).toBe(200);
    expect(yes.body).toEqual({ allowed: true });
    const no = await check('files:plan#viewer@dave');
    expect(no.status).toBe(403);
    expect(no.body).toEqual({ allowed: false });
  });

  it('takes the tuple as a JSON body on POST, and answers on /relation-tuples/check and under /admin too', async () => {
    for (const path of ['/check', '/relation-tuples/check', '/admin/check', '/admin/relation-tuples/check']) {
      const yes = await app.admin.post(path, { json: tuple('files:plan#viewer@carol') });
      expect([yes.status, yes.body], path).toEqual([200, { allowed: true }]);
      const no = await app.admin.post(path, { json: tuple('files:plan#viewer@erin') });
      expect([no.status, no.body], path).toEqual([403, { allowed: false }]);
      const viaQuery = await app.admin.get(`${path}?${query(tuple('files:plan#editor@dave'))}`);
      expect([viaQuery.status, viaQuery.body], path).toEqual([200, { allowed: true }]);
    }
  });

  it('answers 403 {allowed: false} for an unknown namespace, not 404', async () => {
    const response = await check('ghosts:plan#viewer@carol');
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ allowed: false });
    const posted = await app.admin.post('/check', { json: tuple('ghosts:plan#viewer@carol') });
    expect([posted.status, posted.body]).toEqual([403, { allowed: false }]);
  });

  it('answers 400 without a subject, with a malformed subject, or a bad max-depth', async () => {
    expectError(await app.admin.get(`/check?${query({ namespace: 'files', object: 'plan', relation: 'viewer' })}`), 400, 'invalid_request');
    expectError(await check('files:plan#viewer@a#b#c'), 400, 'malformed_subject');
    expectError(
      await app.admin.post('/check', { json: { ...tuple('files:plan#viewer@x'), subject: 'groups:a:b#c' } }),
      400,
      'malformed_subject',
    );
    expectError(
      await app.admin.get(`/check?${query({ ...tuple('files:plan#viewer@carol'), 'max-depth': 'deep' })}`),
      400,
      'invalid_request',
    );
    expectError(
      await app.admin.get(`/check?${query({ ...tuple('files:plan#viewer@carol'), 'max-depth': '1.5' })}`),
      400,
      'invalid_request',
    );
    expectError(await app.admin.post('/check', { json: {} }), 400, 'invalid_request');
    expectError(await app.admin.get(`/check?${query({ ...tuple('files:plan#viewer@carol') })}&subject=again`), 400, 'invalid_request');
  });

  it('answers 400, never 500, for NUL, CRLF and very long query values (S49)', async () => {
    for (const change of [{ object: 'a\u0000' }, { subject: 'a\r\nb' }, { relation: 'r'.repeat(5000) }, { namespace: 'n\u0000' }]) {
      const response = await app.admin.get(`/check?${query({ ...tuple('files:plan#viewer@carol'), ...change })}`);
      expect(response.status, JSON.stringify(change).slice(0, 60)).toBe(400);
    }
  });

  describe('through subject sets', () => {
    beforeAll(async () => {
      await put(
        'files:handbook#viewer@groups:readers#member',
        'groups:readers#member@groups:staff#member',
        'groups:staff#member@frank',
        'groups:staff#member@groups:interns#member',
        'groups:interns#member@gina',
      );
    });

    it('follows chains of subject sets', async () => {
      expect(await allowed('files:handbook#viewer@frank')).toBe(true);
      expect(await allowed('files:handbook#viewer@gina')).toBe(true);
      expect(await allowed('files:handbook#viewer@harry')).toBe(false);
    });

    it('accepts a subject set as the subject asked about', async () => {
      expect(await allowed('files:handbook#viewer@groups:staff#member')).toBe(true);
      expect(await allowed('files:handbook#viewer@groups:staff#owner')).toBe(false);
    });

    it('honours max-depth: a path of n tuples needs depth n', async () => {
      expect(await allowed('files:handbook#viewer@gina', 4)).toBe(true);
      expect(await allowed('files:handbook#viewer@gina', 3)).toBe(false);
      expect(await allowed('files:handbook#viewer@frank', 3)).toBe(true);
      expect(await allowed('files:handbook#viewer@groups:readers#member', 1)).toBe(true);
      expect(await allowed('files:handbook#viewer@frank', 1)).toBe(false);
    });

    it('treats max-depth 0 or below as the configured depth', async () => {
      expect(await allowed('files:handbook#viewer@gina', 0)).toBe(true);
      expect(await allowed('files:handbook#viewer@gina', -3)).toBe(true);
    });
  });

  describe('depth cap', () => {
    beforeAll(async () => {
      // A chain of 7 tuples: files:deep#viewer -> c1 -> ... -> c6 -> ivan.
      const chain = ['files:deep#viewer@groups:c1#member'];
      for (let i = 1; i <= 5; i += 1) chain.push(`groups:c${i}#member@groups:c${i + 1}#member`);
      chain.push('groups:c6#member@ivan', 'groups:c4#member@jane');
      await put(...chain);
    });

    it('clamps max-depth 1000 to TUPLES_MAX_DEPTH (5): a request may only lower it', async () => {
      expect(await allowed('files:deep#viewer@jane', 1000)).toBe(true);
      expect(await allowed('files:deep#viewer@ivan', 1000)).toBe(false);
      expect(await allowed('files:deep#viewer@ivan')).toBe(false);
      expect(await allowed('files:deep#viewer@jane', 4)).toBe(false);
    });
  });

  describe('cycles', () => {
    beforeAll(async () => {
      await put(
        'groups:ring1#member@groups:ring2#member',
        'groups:ring2#member@groups:ring3#member',
        'groups:ring3#member@groups:ring1#member',
        'groups:ring3#member@kate',
        'groups:mirror#member@groups:mirror#member',
      );
    });

    it('finds a subject in a cycle and ends on one without it', async () => {
      expect(await allowed('groups:ring1#member@kate')).toBe(true);
      expect(await allowed('groups:ring2#member@kate')).toBe(true);
      expect(await allowed('groups:ring1#member@liam', 1000)).toBe(false);
      expect(await allowed('groups:mirror#member@liam', 1000)).toBe(false);
    });

    it('does not count the set checked as its own member: only a tuple makes it one', async () => {
      expect(await allowed('groups:nobody#member@groups:nobody#member')).toBe(false);
      expect(await allowed('groups:ring1#member@groups:ring1#member')).toBe(true);
      expect(await allowed('groups:mirror#member@groups:mirror#member')).toBe(true);
    });
  });

  describe('more subjects on the way than the visited-set budget (10,000), in fewer sets', () => {
    // 6,000 sets that each contain themselves, one of which holds a set holding the subject: 6,002
    // distinct sets, within the budget, but met again at every level, more than 10,000 subjects
    // come before the one asked about (three levels down).
    beforeAll(async () => {
      const texts = ['groups:loop0#member@groups:core#member', 'groups:core#member@pia'];
      for (let i = 0; i < 6000; i += 1)
        texts.push(`files:vast#viewer@groups:loop${i}#member`, `groups:loop${i}#member@groups:loop${i}#member`);
      for (let from = 0; from < texts.length; from += 2000) {
        const deltas = texts.slice(from, from + 2000).map((text) => ({ action: 'insert', relation_tuple: tuple(text) }));
        expect((await app.admin.patch('/relation-tuples', { json: deltas })).status).toBe(204);
      }
    });

    it('still finds the subject, and still denies another', async () => {
      expect(await allowed('files:vast#viewer@pia')).toBe(true);
      expect(await allowed('files:vast#viewer@quinn')).toBe(false);
    });
  });

  describe('wide fan-out', () => {
    beforeAll(async () => {
      const deltas = [];
      for (let i = 0; i < 300; i += 1) {
        deltas.push({ action: 'insert', relation_tuple: tuple(`files:wide#viewer@groups:team${i}#member`) });
        deltas.push({ action: 'insert', relation_tuple: tuple(`groups:team${i}#member@member${i}`) });
      }
      expect((await app.admin.patch('/relation-tuples', { json: deltas })).status).toBe(204);
    });

    it('searches hundreds of sets per level', async () => {
      expect(await allowed('files:wide#viewer@member299')).toBe(true);
      expect(await allowed('files:wide#viewer@member300')).toBe(false);
    });
  });

  it('treats a subject set with an empty relation as every relation of the object', async () => {
    await put('files:shared#viewer@folders:root#', 'folders:root#owner@mona', 'folders:root#anything@ned');
    expect(await allowed('files:shared#viewer@mona')).toBe(true);
    expect(await allowed('files:shared#viewer@ned')).toBe(true);
    expect(await allowed('files:shared#viewer@olga')).toBe(false);
  });

  it('follows the subject sets of every relation of such an object, each relation once', async () => {
    await put(
      'files:nested#viewer@folders:tree#',
      'folders:tree#owner@groups:gardeners#member',
      'folders:tree#editor@groups:gardeners#member',
      'folders:tree#editor@groups:pruners#lead',
      'groups:gardeners#member@pat',
      'groups:pruners#lead@groups:gardeners#member',
    );
    // Each depth is its own check-cache key: the later checks walk what the first ones remembered.
    expect(await allowed('files:nested#viewer@pat')).toBe(true);
    expect(await allowed('files:nested#viewer@pat', 3)).toBe(true);
    expect(await allowed('files:nested#viewer@pat', 2)).toBe(false);
    expect(await allowed('files:nested#viewer@groups:gardeners#member', 2)).toBe(true);
    expect(await allowed('files:nested#viewer@groups:pruners#lead', 1)).toBe(false);
    expect(await allowed('files:nested#viewer@quin')).toBe(false);
    expect(await allowed('files:nested#viewer@quin', 4)).toBe(false);
  });
});

describe('GET /expand', () => {
  beforeAll(async () => {
    await put(
      'files:/photos/beach.jpg#owner@maureen',
      'files:/photos/beach.jpg#access@files:/photos/beach.jpg#owner',
      'files:/photos/beach.jpg#access@folders:/photos#access',
      'folders:/photos#owner@laura',
      'folders:/photos#access@folders:/photos#owner',
    );
  });

  const expand = (params: Record<string, string | number>): Promise<HttpResponse<Tree | null>> => app.admin.get(`/expand?${query(params)}`);
  const beach = { namespace: 'files', object: '/photos/beach.jpg', relation: 'access' };

  it('answers the tree of members: unions for sets, leaves for subjects', async () => {
    const response = await expand({ ...beach, 'max-depth': 3 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      type: 'union',
      subject: 'files:/photos/beach.jpg#access',
      children: [
        { type: 'union', subject: 'files:/photos/beach.jpg#owner', children: [{ type: 'leaf', subject: 'maureen' }] },
        { type: 'union', subject: 'folders:/photos#access', children: [{ type: 'leaf', subject: 'folders:/photos#owner' }] },
      ],
    });
  });

  it('honours max-depth, and clamps it to TUPLES_MAX_DEPTH', async () => {
    expect((await expand({ ...beach, 'max-depth': 1 })).body).toEqual({ type: 'leaf', subject: 'files:/photos/beach.jpg#access' });
    const deep = await expand({ ...beach, 'max-depth': 1000 });
    const defaulted = await expand(beach);
    expect(deep.body).toEqual(defaulted.body);
    const photos = deep.body!.children!.find((child) => child.subject === 'folders:/photos#access');
    expect(photos?.children).toEqual([{ type: 'union', subject: 'folders:/photos#owner', children: [{ type: 'leaf', subject: 'laura' }] }]);
  });

  it('shows a cycle as a leaf', async () => {
    const response = await expand({ namespace: 'groups', object: 'ring1', relation: 'member', 'max-depth': 5 });
    expect(JSON.stringify(response.body)).toContain('{"type":"leaf","subject":"groups:ring1#member"}');
  });

  it('answers 200 null for a set without members', async () => {
    const response = await expand({ namespace: 'files', object: 'nothing-here', relation: 'access' });
    expect(response.status).toBe(200);
    expect(response.text).toBe('null');
  });

  it('answers 400 for a missing parameter or a bad max-depth, 404 for an unknown namespace', async () => {
    for (const missing of ['namespace', 'object', 'relation']) {
      const params: Record<string, string> = { ...beach };
      delete params[missing];
      expectError(await expand(params), 400, 'invalid_request');
    }
    expectError(await expand({ ...beach, 'max-depth': 'x' }), 400, 'invalid_request');
    expectError(await expand({ ...beach, object: 'a\u0000' }), 400, 'invalid_relation_tuple');
    expectError(await expand({ ...beach, namespace: 'ghosts' }), 404, 'unknown_namespace');
  });
});

describe('GET /relation-tuples', () => {
  beforeAll(async () => {
    const deltas = Array.from({ length: 25 }, (_, i) => ({
      action: 'insert',
      relation_tuple: tuple(`folders:list${String(i % 5)}#${i % 2 === 0 ? 'viewer' : 'editor'}@user${String(i).padStart(2, '0')}`),
    }));
    expect((await app.admin.patch('/relation-tuples', { json: deltas })).status).toBe(204);
  });

  it('pages through every tuple, in order, without repeats, and ends with an empty token', async () => {
    const { tuples, pages } = await listAll({ namespace: 'folders', page_size: 4 });
    const listed = tuples.filter((item) => item.object.startsWith('list'));
    expect(listed).toHaveLength(25);
    expect(new Set(listed.map((item) => JSON.stringify(item))).size).toBe(25);
    expect(pages).toBeGreaterThanOrEqual(7);
    const keys = tuples.map((item) => [item.object, item.relation, item.subject].join('\u0000'));
    expect(keys).toEqual([...keys].sort());
  });

  it('filters by object, relation and subject; empty values filter nothing', async () => {
    expect((await listAll({ namespace: 'folders', object: 'list0' })).tuples).toHaveLength(5);
    expect((await listAll({ namespace: 'folders', object: 'list0', relation: 'viewer' })).tuples).toHaveLength(3);
    expect((await listAll({ namespace: 'folders', subject: 'user07' })).tuples).toEqual([tuple('folders:list2#editor@user07')]);
    expect((await listAll({ namespace: 'folders', object: 'list0', relation: '', subject: '' })).tuples).toHaveLength(5);
    expect((await listAll({ namespace: 'files', subject: 'groups:readers#member' })).tuples).toEqual([
      tuple('files:handbook#viewer@groups:readers#member'),
    ]);
    expect((await listAll({ namespace: 'files', subject: 'ghosts:g#member' })).tuples).toEqual([]);
  });

  it('answers one page with an empty token when everything fits', async () => {
    const response = await app.admin.get<Page>(`/relation-tuples?${query({ namespace: 'folders', object: 'list1' })}`);
    expect(response.body.relation_tuples).toHaveLength(5);
    expect(response.body.next_page_token).toBe('');
  });

  it('uses 100 by default (and for 0) and at most 1000', async () => {
    const deltas = Array.from({ length: 1005 }, (_, i) => ({ action: 'insert', relation_tuple: tuple(`groups:crowd#member@p${i}`) }));
    expect((await app.admin.patch('/relation-tuples', { json: deltas })).status).toBe(204);
    const sizes = async (params: Record<string, string | number>): Promise<number> =>
      (await app.admin.get<Page>(`/relation-tuples?${query({ namespace: 'groups', object: 'crowd', ...params })}`)).body.relation_tuples
        .length;
    expect(await sizes({})).toBe(100);
    expect(await sizes({ page_size: 0 })).toBe(100);
    expect(await sizes({ page_size: 1000 })).toBe(1000);
    expect(await sizes({ page_size: 5000 })).toBe(1000);
    expect(await sizes({ page_size: 7 })).toBe(7);
    const { tuples, pages } = await listAll({ namespace: 'groups', object: 'crowd', page_size: 1000 });
    expect([tuples.length, pages]).toEqual([1005, 2]);
  });

  it('answers 400 for a bad page_size', async () => {
    for (const page_size of ['-1', 'ten', '1.5']) {
      expectError(await app.admin.get(`/relation-tuples?${query({ namespace: 'folders', page_size })}`), 400, 'invalid_request');
    }
  });

  it('answers 400, never 500, for a forged, garbage, tampered or foreign page token (S47)', async () => {
    const first = await app.admin.get<Page>(`/relation-tuples?${query({ namespace: 'folders', page_size: 2 })}`);
    const token = first.body.next_page_token;
    expect(token).not.toBe('');
    const parts = token.split('.');
    const flip = (text: string): string => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
    const forged = [
      'abc',
      '2',
      'v1.....',
      'v1.a.b.c.d',
      Buffer.from(JSON.stringify(['list0', 'viewer', 'i:user00'])).toString('base64url'),
      `${token}x`,
      token.slice(0, -2),
      [parts[0], parts[1], parts[2], flip(parts[3]!), parts[4]].join('.'),
      [parts[0], parts[1], parts[2], parts[3], flip(parts[4]!)].join('.'),
      [parts[0], flip(parts[1]!), parts[2], parts[3], parts[4]].join('.'),
      ['v2', ...parts.slice(1)].join('.'),
      "' OR 1=1 --",
      '%00',
      'x'.repeat(5000),
    ];
    for (const page_token of forged) {
      const response = await app.admin.get(`/relation-tuples?${query({ namespace: 'folders', page_size: 2, page_token })}`);
      expect(response.status, page_token.slice(0, 40)).toBe(400);
      expect((response.body as AccessError).id).toBe('invalid_page_token');
    }
    // The token is bound to the filters of the list that issued it.
    const foreign = await app.admin.get(`/relation-tuples?${query({ namespace: 'folders', object: 'list0', page_token: token })}`);
    expectError(foreign, 400, 'invalid_page_token');
    const otherNamespace = await app.admin.get(`/relation-tuples?${query({ namespace: 'groups', page_token: token })}`);
    expectError(otherNamespace, 400, 'invalid_page_token');
    // It works with another page size.
    expect((await app.admin.get(`/relation-tuples?${query({ namespace: 'folders', page_size: 3, page_token: token })}`)).status).toBe(200);
  });

  it('answers 400 without a namespace, 404 for an unknown one', async () => {
    expectError(await app.admin.get('/relation-tuples'), 400, 'invalid_request');
    expectError(await app.admin.get('/relation-tuples?namespace=ghosts'), 404, 'unknown_namespace');
    expectError(await app.admin.get(`/relation-tuples?${query({ namespace: 'folders', subject: 'a#b#c' })}`), 400, 'malformed_subject');
    expectError(
      await app.admin.get(`/relation-tuples?${query({ namespace: 'folders', object: 'x\r\ny' })}`),
      400,
      'invalid_relation_tuple',
    );
  });
});

describe('DELETE /relation-tuples', () => {
  it('deletes one tuple by subject (204), and deleting it again is still 204', async () => {
    await put('files:memo#viewer@paul', 'files:memo#viewer@quinn');
    const path = `/relation-tuples?${query(tuple('files:memo#viewer@paul'))}`;
    const response = await app.admin.delete(path);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await app.admin.delete(path)).status).toBe(204);
    expect(await allowed('files:memo#viewer@paul')).toBe(false);
    expect(await allowed('files:memo#viewer@quinn')).toBe(true);
  });

  it('deletes every subject of (namespace, object, relation) without a subject', async () => {
    await put('files:bulk#viewer@r1', 'files:bulk#viewer@groups:x#member', 'files:bulk#owner@r1');
    expect((await app.admin.delete(`/relation-tuples?${query({ namespace: 'files', object: 'bulk', relation: 'viewer' })}`)).status).toBe(
      204,
    );
    expect((await listAll({ namespace: 'files', object: 'bulk' })).tuples).toEqual([tuple('files:bulk#owner@r1')]);
  });

  it('deletes a subject-set tuple by its subject string', async () => {
    await put('files:setdel#viewer@groups:x#member');
    const response = await app.admin.delete(`/relation-tuples?${query(tuple('files:setdel#viewer@groups:x#member'))}`);
    expect(response.status).toBe(204);
    expect((await listAll({ namespace: 'files', object: 'setdel' })).tuples).toEqual([]);
  });

  it('answers 400 without object or relation or with a malformed subject, 404 for an unknown namespace', async () => {
    expectError(await app.admin.delete(`/relation-tuples?${query({ namespace: 'files', object: 'memo' })}`), 400, 'invalid_request');
    expectError(await app.admin.delete(`/relation-tuples?${query({ namespace: 'files', relation: 'viewer' })}`), 400, 'invalid_request');
    expectError(
      await app.admin.delete(`/relation-tuples?${query({ namespace: 'files', object: 'memo', relation: 'viewer', subject: 'a#b' })}`),
      400,
      'malformed_subject',
    );
    // An empty subject never means "all subjects".
    expectError(
      await app.admin.delete(`/relation-tuples?${query({ namespace: 'files', object: 'memo', relation: 'viewer', subject: '' })}`),
      400,
      'malformed_subject',
    );
    expect(await allowed('files:memo#viewer@quinn')).toBe(true);
    expectError(
      await app.admin.delete(`/relation-tuples?${query({ namespace: 'ghosts', object: 'memo', relation: 'viewer' })}`),
      404,
      'unknown_namespace',
    );
  });
});

describe('PATCH /relation-tuples', () => {
  const delta = (action: string, text: string): { action: string; relation_tuple: Tuple } => ({ action, relation_tuple: tuple(text) });

  it('inserts and deletes in one request (204)', async () => {
    await put('files:patched#viewer@old');
    const response = await app.admin.patch('/relation-tuples', {
      json: [
        delta('insert', 'files:patched#viewer@new1'),
        delta('delete', 'files:patched#viewer@old'),
        delta('insert', 'files:patched#viewer@new2'),
      ],
    });
    expect(response.status).toBe(204);
    expect((await listAll({ namespace: 'files', object: 'patched' })).tuples.map((item) => item.subject)).toEqual(['new1', 'new2']);
  });

  it('applies inserts before deletes (Keto v0.6)', async () => {
    const response = await app.admin.patch('/relation-tuples', {
      json: [delta('delete', 'files:order#viewer@sam'), delta('insert', 'files:order#viewer@sam')],
    });
    expect(response.status).toBe(204);
    expect(await allowed('files:order#viewer@sam')).toBe(false);
  });

  it('accepts an empty list and repeated inserts', async () => {
    expect((await app.admin.patch('/relation-tuples', { json: [] })).status).toBe(204);
    const twice = [delta('insert', 'files:dup#viewer@tom'), delta('insert', 'files:dup#viewer@tom')];
    expect((await app.admin.patch('/relation-tuples', { json: twice })).status).toBe(204);
    expect((await listAll({ namespace: 'files', object: 'dup' })).tuples).toHaveLength(1);
  });

  it('applies nothing when one delta in the middle is bad', async () => {
    const before = await queryDatabase<{ count: string }>(app.databaseUrl, 'SELECT count(*) FROM relation_tuples');
    const bad: Array<[unknown, number, string]> = [
      [{ action: 'upsert', relation_tuple: tuple('files:atomic#viewer@x') }, 400, 'invalid_request'],
      [{ action: 'insert' }, 400, 'invalid_request'],
      [{ action: 'insert', relation_tuple: { ...tuple('files:atomic#viewer@x'), subject: 'a#b#c' } }, 400, 'malformed_subject'],
      [{ action: 'delete', relation_tuple: { ...tuple('files:atomic#viewer@x'), object: 'a\u0000' } }, 400, 'invalid_relation_tuple'],
      [delta('insert', 'ghosts:atomic#viewer@x'), 404, 'unknown_namespace'],
      [delta('insert', 'files:atomic#viewer@ghosts:g#member'), 404, 'unknown_namespace'],
      ['insert', 400, 'invalid_request'],
      [null, 400, 'invalid_request'],
    ];
    for (const [middle, status, id] of bad) {
      const response = await app.admin.patch('/relation-tuples', {
        json: [
          delta('insert', 'files:atomic#viewer@first'),
          middle,
          delta('delete', 'files:plan#viewer@carol'),
          delta('insert', 'files:atomic#viewer@last'),
        ],
      });
      expectError(response, status, id);
      expect(JSON.stringify(response.body)).toContain('[1]');
    }
    expect(await queryDatabase(app.databaseUrl, 'SELECT count(*) FROM relation_tuples')).toEqual(before);
    expect(await allowed('files:atomic#viewer@first')).toBe(false);
    expect(await allowed('files:plan#viewer@carol')).toBe(true);
  });

  it('answers 400 for a body that is not a list', async () => {
    for (const json of [{ action: 'insert', relation_tuple: tuple('files:a#b@c') }, 'insert', 42]) {
      expectError(await app.admin.patch('/relation-tuples', { json }), 400, 'invalid_request');
    }
  });
});

describe('listeners and authentication', () => {
  const routes: Array<[string, string, unknown?]> = [
    ['GET', `/relation-tuples?namespace=files`],
    ['PUT', '/relation-tuples', tuple('files:auth#viewer@u')],
    ['DELETE', '/relation-tuples?namespace=files&object=auth&relation=viewer'],
    ['PATCH', '/relation-tuples', []],
    ['GET', `/check?${query(tuple('files:plan#viewer@carol'))}`],
    ['POST', '/check', tuple('files:plan#viewer@carol')],
    ['GET', `/relation-tuples/check?${query(tuple('files:plan#viewer@carol'))}`],
    ['POST', '/relation-tuples/check', tuple('files:plan#viewer@carol')],
    ['GET', '/expand?namespace=files&object=plan&relation=viewer'],
  ];

  it('answers 401 on the admin listener without an admin token, or with a wrong one', async () => {
    for (const [method, path, json] of routes) {
      for (const client of [app.anonymousAdmin, app.anonymousAdmin.withToken('wrong-token-0123456789abcdef')]) {
        const response = await client.request(method, path, json === undefined ? {} : { json });
        expect(response.status, `${method} ${path}`).toBe(401);
        expect(response.body).toMatchObject({ code: 401 });
      }
    }
  });

  it('answers 404 on the public listener, even with the admin token', async () => {
    for (const [method, path, json] of routes) {
      const response = await app.public.withToken(TEST_ADMIN_TOKEN).request(method, path, json === undefined ? {} : { json });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
  });
});
