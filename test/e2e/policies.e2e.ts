import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyBody } from '../support/acp-builders.js';
import { bootApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';

let app: TestApp;

beforeAll(async () => {
  app = await bootApp();
});

afterAll(async () => {
  await app.close();
});

const base = (flavor: string): string => `/engines/acp/service/${flavor}`;

interface Policy {
  id: string;
  description: string;
  subjects: string[];
  resources: string[];
  actions: string[];
  effect: string;
  conditions: Record<string, unknown>;
}

interface AccessError {
  id: string;
  code: number;
  status: string;
  reason: string;
  message: string;
  request: string;
  details: Array<Record<string, unknown>>;
}

async function putPolicy(flavor: string, body: Record<string, unknown>): Promise<Policy> {
  const response = await app.admin.put<Policy>(`${base(flavor)}/policies`, { json: body });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function allowed(flavor: string, input: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  const response = await app.admin.post(`${base(flavor)}/allowed`, { json: input });
  return { status: response.status, body: response.body };
}

describe('policies: PUT, GET, list, DELETE', () => {
  it('upserts a policy and answers 200 with it; GET returns the same', async () => {
    const body = policyBody({
      id: 'crud-1',
      subjects: ['users:<peter|ken>'],
      resources: ['resources:articles:<.*>'],
      actions: ['<create|delete>'],
      conditions: { remoteIPAddress: { type: 'CIDRCondition', options: { cidr: '192.168.0.0/16' } } },
    });
    const created = await putPolicy('regex', body);
    expect(created).toEqual({ ...body, conditions: { remoteIPAddress: { type: 'CIDRCondition', options: { cidr: '192.168.0.0/16' } } } });
    const fetched = await app.admin.get<Policy>(`${base('regex')}/policies/crud-1`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created);
  });

  it('replaces a policy on a second PUT with the same id', async () => {
    await putPolicy('regex', policyBody({ id: 'crud-2', effect: 'allow' }));
    const replaced = await putPolicy('regex', policyBody({ id: 'crud-2', effect: 'deny', actions: ['write'], description: 'changed' }));
    expect(replaced).toMatchObject({ id: 'crud-2', effect: 'deny', actions: ['write'], description: 'changed' });
    expect((await app.admin.get<Policy>(`${base('regex')}/policies/crud-2`)).body).toEqual(replaced);
    const rows = await queryDatabase(app.databaseUrl, `SELECT id FROM acp_policies WHERE id = 'crud-2'`);
    expect(rows).toHaveLength(1);
  });

  it('gives a policy without id a UUID, and fills defaults', async () => {
    const created = await putPolicy('glob', { effect: 'allow' });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created).toEqual({ id: created.id, description: '', subjects: [], resources: [], actions: [], effect: 'allow', conditions: {} });
  });

  it('answers 404 for an unknown policy, and 204 on DELETE (also when it does not exist)', async () => {
    const missing = await app.admin.get<AccessError>(`${base('regex')}/policies/does-not-exist`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ id: 'policy_not_found', code: 404, status: 'Not Found' });
    await putPolicy('regex', policyBody({ id: 'crud-3' }));
    const deleted = await app.admin.delete(`${base('regex')}/policies/crud-3`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await app.admin.get(`${base('regex')}/policies/crud-3`)).status).toBe(404);
    expect((await app.admin.delete(`${base('regex')}/policies/crud-3`)).status).toBe(204);
  });

  it('keeps flavors apart: a policy of one flavor is unknown to the others', async () => {
    await putPolicy('exact', policyBody({ id: 'flavored' }));
    expect((await app.admin.get(`${base('exact')}/policies/flavored`)).status).toBe(200);
    expect((await app.admin.get(`${base('glob')}/policies/flavored`)).status).toBe(404);
    expect((await app.admin.get(`${base('regex')}/policies/flavored`)).status).toBe(404);
  });

  it('accepts ids with slashes, spaces and unicode through the path', async () => {
    const id = 'team/α β:1';
    await putPolicy('exact', policyBody({ id }));
    const fetched = await app.admin.get<Policy>(`${base('exact')}/policies/${encodeURIComponent(id)}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.id).toBe(id);
  });
});

describe('policies: list, filters and pagination', () => {
  beforeAll(async () => {
    for (let i = 0; i < 12; i += 1) {
      await putPolicy('glob', {
        id: `list-${String(i).padStart(2, '0')}`,
        effect: 'allow',
        subjects: [i % 2 === 0 ? 'users:even' : 'users:odd', 'users:*'],
        resources: [`articles:${i}`],
        actions: [i < 4 ? 'read' : 'write'],
      });
    }
  });

  const ids = (body: unknown): string[] => (body as Policy[]).map((policy) => policy.id).filter((id) => id.startsWith('list-'));

  it('lists policies ordered by id, default limit 100', async () => {
    const response = await app.admin.get<Policy[]>(`${base('glob')}/policies`);
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual(Array.from({ length: 12 }, (_, i) => `list-${String(i).padStart(2, '0')}`));
  });

  it('pages with limit and offset; an offset past the end is an empty page', async () => {
    const all = (await app.admin.get<Policy[]>(`${base('glob')}/policies`)).body.map((policy) => policy.id);
    const page = await app.admin.get<Policy[]>(`${base('glob')}/policies?limit=5&offset=3`);
    expect(page.body.map((policy) => policy.id)).toEqual(all.slice(3, 8));
    const past = await app.admin.get<Policy[]>(`${base('glob')}/policies?offset=100000`);
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
  });

  it('filters by subject, resource and action as literal elements, not patterns', async () => {
    const even = await app.admin.get(`${base('glob')}/policies?subject=users:even`);
    expect(ids(even.body)).toEqual(['list-00', 'list-02', 'list-04', 'list-06', 'list-08', 'list-10']);
    expect(ids((await app.admin.get(`${base('glob')}/policies?subject=users:alice`)).body)).toEqual([]);
    expect(ids((await app.admin.get(`${base('glob')}/policies?subject=${encodeURIComponent('users:*')}`)).body)).toHaveLength(12);
    expect(ids((await app.admin.get(`${base('glob')}/policies?resource=articles:7`)).body)).toEqual(['list-07']);
    expect(ids((await app.admin.get(`${base('glob')}/policies?action=read&subject=users:odd`)).body)).toEqual(['list-01', 'list-03']);
  });

  it('applies the filters before the page is cut', async () => {
    const page = await app.admin.get(`${base('glob')}/policies?action=write&limit=3&offset=1`);
    expect(ids(page.body)).toEqual(['list-05', 'list-06', 'list-07']);
  });

  it('caps limit at 500', async () => {
    const response = await app.admin.get(`${base('glob')}/policies?limit=100000`);
    expect(response.status).toBe(200);
  });

  it('answers 400, never 500, for negative, huge or malformed limit and offset (S47)', async () => {
    for (const query of ['limit=-1', 'offset=-5', 'limit=0', 'limit=abc', 'limit=99999999999999999999', 'offset=1e3', 'limit=1&limit=2']) {
      const response = await app.admin.get<AccessError>(`${base('glob')}/policies?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.code).toBe(400);
    }
  });

  it('treats SQL metacharacters in filters and ids as plain text (S47)', async () => {
    const hostile = ["' OR '1'='1", "'; DROP TABLE acp_policies; --", 'users:even%', '\\', '"'];
    for (const value of hostile) {
      const filtered = await app.admin.get<Policy[]>(`${base('glob')}/policies?subject=${encodeURIComponent(value)}`);
      expect(filtered.status, value).toBe(200);
      expect(filtered.body).toEqual([]);
      const fetched = await app.admin.get(`${base('glob')}/policies/${encodeURIComponent(value)}`);
      expect(fetched.status, value).toBe(404);
      expect(fetched.text).not.toMatch(/syntax|SQL|postgres|relation/i);
    }
    const stored = await putPolicy('glob', policyBody({ id: "o'reilly; --", subjects: ["' OR 1=1 --"] }));
    expect(stored.id).toBe("o'reilly; --");
    expect(ids((await app.admin.get(`${base('glob')}/policies`)).body)).toHaveLength(12);
  });
});

describe('policies: validation on write', () => {
  const put = (flavor: string, body: Record<string, unknown>) => app.admin.put<AccessError>(`${base(flavor)}/policies`, { json: body });

  it('refuses an effect other than allow or deny', async () => {
    for (const effect of ['permit', 'ALLOW', '', 1]) {
      const response = await put('regex', policyBody({ effect }));
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ id: 'invalid_request', code: 400 });
      expect(response.body.reason).toMatch(/effect/);
    }
    const missing = await put('regex', { id: 'no-effect', subjects: ['a'] });
    expect(missing.status).toBe(400);
  });

  it('refuses a regex pattern that does not compile, naming the field and the pattern', async () => {
    const response = await put('regex', policyBody({ resources: ['ok', 'articles:<[0-9+>'] }));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ id: 'invalid_pattern', details: [{ field: 'resources[1]' }] });
    expect(response.body.reason).toContain('resources[1]');
    expect(response.body.reason).toContain('articles:<[0-9+>');
    for (const bad of ['users:<.*', 'users:.*>', '<a)|(b>'])
      expect((await put('regex', policyBody({ subjects: [bad] }))).status, bad).toBe(400);
  });

  it('refuses regex expressions that cannot run in linear time (ReDoS guard)', async () => {
    for (const bad of ['<(a)\\1>', '<(?=a)a>', '<a{100}>']) {
      const response = await put('regex', policyBody({ actions: [bad] }));
      expect(response.status, bad).toBe(400);
      expect(response.body.id).toBe('invalid_pattern');
    }
  });

  it('refuses malformed globs but accepts anything in the exact flavor', async () => {
    expect((await put('glob', policyBody({ resources: ['articles:[abc'] }))).status).toBe(400);
    expect((await put('glob', policyBody({ resources: ['articles:{a,b'] }))).status).toBe(400);
    expect((await put('exact', policyBody({ resources: ['articles:[abc', 'a:<(>'] }))).status).toBe(200);
  });

  it('refuses an unknown condition type and bad condition options, naming the condition', async () => {
    const unknown = await put('exact', policyBody({ conditions: { ip: { type: 'MagicCondition', options: {} } } }));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ id: 'invalid_condition', details: [{ field: 'conditions.ip.type' }] });
    const badCidr = await put('exact', policyBody({ conditions: { ip: { type: 'CIDRCondition', options: { cidr: 'nope' } } } }));
    expect(badCidr.status).toBe(400);
    expect(badCidr.body.details).toEqual([{ field: 'conditions.ip.options.cidr' }]);
    expect((await put('exact', policyBody({ conditions: { k: 'StringEqualCondition' } }))).status).toBe(400);
    expect((await put('exact', policyBody({ conditions: [] }))).status).toBe(400);
  });

  it('refuses wrong types and unknown members', async () => {
    expect((await put('exact', policyBody({ subjects: 'users:alice' }))).status).toBe(400);
    expect((await put('exact', policyBody({ subjects: [1] }))).status).toBe(400);
    expect((await put('exact', policyBody({ colour: 'red' }))).status).toBe(400);
  });

  it('answers 400, never 500, for NUL, CR/LF and very long strings (S49)', async () => {
    const cases: Array<Record<string, unknown>> = [
      { id: 'nul\u0000id' },
      { id: 'crlf\r\nid' },
      { id: 'x'.repeat(191) },
      { subjects: ['users:alice\u0000'] },
      { resources: ['a\r\nBcc: x'] },
      { actions: ['y'.repeat(1025)] },
      { description: 'nul\u0000description' },
      { description: 'z'.repeat(5000) },
      { subjects: Array.from({ length: 101 }, (_, i) => `s${i}`) },
      { conditions: { ['k'.repeat(300)]: { type: 'BooleanCondition', options: { value: true } } } },
      { conditions: { k: { type: 'StringEqualCondition', options: { equals: 'a\u0000b' } } } },
    ];
    for (const overrides of cases) {
      const response = await put('exact', policyBody(overrides));
      expect(response.status, JSON.stringify(overrides).slice(0, 80)).toBe(400);
    }
    for (const path of ['/policies/a%00b', `/policies/${'x'.repeat(300)}`, '/policies/a%0D%0Ab']) {
      expect((await app.admin.get(`${base('exact')}${path}`)).status, path).toBe(400);
      expect((await app.admin.delete(`${base('exact')}${path}`)).status, path).toBe(400);
    }
    expect((await app.admin.get(`${base('exact')}/policies?subject=a%00b`)).status).toBe(400);
    expect((await app.admin.get(`${base('exact')}/policies?resource=${'r'.repeat(2000)}`)).status).toBe(400);
  });

  it('keeps unicode that is not a control character (RTL override, emoji) as given', async () => {
    const stored = await putPolicy('exact', policyBody({ subjects: ['users:\u202Eevil', 'users:😀'] }));
    expect(stored.subjects).toEqual(['users:\u202Eevil', 'users:😀']);
  });

  it('answers 400 for invalid JSON, 415 for a wrong content type, 413 for an oversized body (S48)', async () => {
    const url = `${base('exact')}/policies`;
    expect((await app.admin.put(url, { rawBody: '{"id": "x",', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await app.admin.put(url, { rawBody: 'id=x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    const huge = JSON.stringify(policyBody({ description: 'd'.repeat(2_000_000) }));
    expect((await app.admin.put(url, { rawBody: huge, headers: { 'content-type': 'application/json' } })).status).toBe(413);
    const proto = await app.admin.put(url, {
      rawBody: '{"effect":"allow","__proto__":{"polluted":true}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(proto.status).toBe(400);
  });
});

describe('roles', () => {
  interface Role {
    id: string;
    description: string;
    members: string[];
  }

  it('upserts, gets, lists by member, and deletes roles', async () => {
    const created = await app.admin.put<Role>(`${base('regex')}/roles`, { json: { id: 'editors', members: ['alice', 'bob', 'alice'] } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: 'editors', description: '', members: ['alice', 'bob'] });
    expect((await app.admin.get<Role>(`${base('regex')}/roles/editors`)).body).toEqual(created.body);
    await app.admin.put(`${base('regex')}/roles`, { json: { id: 'readers', description: 'read only', members: ['carol', 'alice'] } });
    const byMember = await app.admin.get<Role[]>(`${base('regex')}/roles?member=alice`);
    expect(byMember.body.map((role) => role.id)).toEqual(['editors', 'readers']);
    expect((await app.admin.get<Role[]>(`${base('regex')}/roles?member=carol`)).body.map((role) => role.id)).toEqual(['readers']);
    expect((await app.admin.get<Role[]>(`${base('regex')}/roles?limit=1&offset=1`)).body.map((role) => role.id)).toEqual(['readers']);
    expect((await app.admin.get<Role[]>(`${base('glob')}/roles`)).body).toEqual([]);
    expect((await app.admin.delete(`${base('regex')}/roles/readers`)).status).toBe(204);
    expect((await app.admin.get(`${base('regex')}/roles/readers`)).status).toBe(404);
    expect((await app.admin.delete(`${base('regex')}/roles/readers`)).status).toBe(204);
  });

  it('gives a role without id a UUID', async () => {
    const created = await app.admin.put<Role>(`${base('glob')}/roles`, { json: { members: ['x'] } });
    expect(created.status).toBe(200);
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('adds members (200 with the role, each member once) and 404 for an unknown role', async () => {
    await app.admin.put(`${base('exact')}/roles`, { json: { id: 'team', members: ['a'] } });
    const added = await app.admin.put<Role>(`${base('exact')}/roles/team/members`, { json: { members: ['b', 'a', 'c', 'b'] } });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ id: 'team', description: '', members: ['a', 'b', 'c'] });
    const unknown = await app.admin.put<AccessError>(`${base('exact')}/roles/nobody/members`, { json: { members: ['a'] } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.id).toBe('role_not_found');
    expect((await app.admin.put(`${base('exact')}/roles/team/members`, { json: { members: 'a' } })).status).toBe(400);
    expect((await app.admin.put(`${base('exact')}/roles/team/members`, { json: {} })).status).toBe(400);
  });

  it('removes one member (200 with the role), idempotently, and 404 for an unknown role', async () => {
    await app.admin.put(`${base('exact')}/roles`, { json: { id: 'crew', members: ['a', 'b:1', 'c'] } });
    const removed = await app.admin.delete<Role>(`${base('exact')}/roles/crew/members/${encodeURIComponent('b:1')}`);
    expect(removed.status).toBe(200);
    expect(removed.body.members).toEqual(['a', 'c']);
    expect((await app.admin.delete<Role>(`${base('exact')}/roles/crew/members/zzz`)).body.members).toEqual(['a', 'c']);
    expect((await app.admin.delete(`${base('exact')}/roles/nobody/members/a`)).status).toBe(404);
  });

  it('answers 400 for NUL, CR/LF and very long members and ids (S49), and for bad paging (S47)', async () => {
    expect((await app.admin.put(`${base('exact')}/roles`, { json: { id: 'r', members: ['a\u0000'] } })).status).toBe(400);
    expect((await app.admin.put(`${base('exact')}/roles`, { json: { id: 'r\r\n', members: [] } })).status).toBe(400);
    expect((await app.admin.put(`${base('exact')}/roles`, { json: { id: 'r', members: ['m'.repeat(1025)] } })).status).toBe(400);
    expect((await app.admin.put(`${base('exact')}/roles/team/members`, { json: { members: ['a\nb'] } })).status).toBe(400);
    expect((await app.admin.delete(`${base('exact')}/roles/team/members/a%00b`)).status).toBe(400);
    expect((await app.admin.get(`${base('exact')}/roles?member=a%00b`)).status).toBe(400);
    expect((await app.admin.get(`${base('exact')}/roles?limit=-3`)).status).toBe(400);
    expect((await app.admin.get(`${base('exact')}/roles/${encodeURIComponent("' OR 1=1 --")}`)).status).toBe(404);
  });
});

describe('allowed', () => {
  beforeAll(async () => {
    await putPolicy('regex', {
      id: 'allow-articles',
      effect: 'allow',
      subjects: ['users:<peter|ken>', 'roles:editors'],
      resources: ['resources:articles:<.*>'],
      actions: ['<create|delete|read>'],
    });
    await putPolicy('regex', {
      id: 'deny-secret',
      effect: 'deny',
      subjects: ['<.*>'],
      resources: ['resources:articles:secret'],
      actions: ['<.*>'],
    });
    await putPolicy('regex', {
      id: 'office-only',
      effect: 'allow',
      subjects: ['users:maria'],
      resources: ['resources:printers:<.*>'],
      actions: ['print'],
      conditions: { remoteIPAddress: { type: 'CIDRCondition', options: { cidr: '192.168.0.0/16' } } },
    });
    await app.admin.put(`${base('regex')}/roles`, { json: { id: 'roles:editors', members: ['users:anna'] } });
    await putPolicy('glob', { id: 'glob-1', effect: 'allow', subjects: ['users:*'], resources: ['files:**:report'], actions: ['read'] });
    await putPolicy('exact', { id: 'exact-1', effect: 'allow', subjects: ['users:alice'], resources: ['files:1'], actions: ['read'] });
  });

  it('answers 200 {"allowed":true} when an allow matches', async () => {
    expect(await allowed('regex', { subject: 'users:peter', resource: 'resources:articles:ladon', action: 'delete' })).toEqual({
      status: 200,
      body: { allowed: true },
    });
  });

  it('answers 403 {"allowed":false}, not an error body, when nothing matches (S59)', async () => {
    const response = await app.admin.post(`${base('regex')}/allowed`, {
      json: { subject: 'users:maria', resource: 'resources:articles:ladon', action: 'delete' },
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ allowed: false });
  });

  it('lets a matching deny override a matching allow (S59: several matches never allow over a deny)', async () => {
    expect(await allowed('regex', { subject: 'users:peter', resource: 'resources:articles:secret', action: 'read' })).toEqual({
      status: 403,
      body: { allowed: false },
    });
  });

  it('grants through a role the subject is a member of', async () => {
    expect((await allowed('regex', { subject: 'users:anna', resource: 'resources:articles:1', action: 'read' })).status).toBe(200);
    expect((await allowed('regex', { subject: 'users:bob', resource: 'resources:articles:1', action: 'read' })).status).toBe(403);
  });

  it('evaluates conditions against the context (the reference CIDR example)', async () => {
    const request = { subject: 'users:maria', resource: 'resources:printers:1', action: 'print' };
    expect((await allowed('regex', { ...request, context: { remoteIPAddress: '192.168.0.5' } })).status).toBe(200);
    expect((await allowed('regex', { ...request, context: { remoteIPAddress: '10.0.0.5' } })).status).toBe(403);
    expect((await allowed('regex', { ...request, context: { remoteIPAddressWrong: '192.168.0.5' } })).status).toBe(403);
    expect((await allowed('regex', request)).status).toBe(403);
  });

  it('matches per flavor: glob with ":" separators, exact by equality', async () => {
    expect((await allowed('glob', { subject: 'users:x', resource: 'files:a:b:report', action: 'read' })).status).toBe(200);
    expect((await allowed('glob', { subject: 'users:x', resource: 'files:report', action: 'read' })).status).toBe(200);
    expect((await allowed('glob', { subject: 'users:x', resource: 'filesreport', action: 'read' })).status).toBe(403);
    expect((await allowed('glob', { subject: 'users:x:y', resource: 'files:a:report', action: 'read' })).status).toBe(403);
    expect((await allowed('exact', { subject: 'users:alice', resource: 'files:1', action: 'read' })).status).toBe(200);
    expect((await allowed('exact', { subject: 'users:alice', resource: 'files:<.*>', action: 'read' })).status).toBe(403);
    expect((await allowed('regex', { subject: 'users:alice', resource: 'files:1', action: 'read' })).status).toBe(403);
  });

  it('accepts an empty body (everything empty: denied)', async () => {
    const response = await app.admin.post(`${base('regex')}/allowed`);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ allowed: false });
  });

  it('answers 400 for malformed input: wrong types, unknown members, NUL, CR/LF, very long strings (S49)', async () => {
    const cases: Array<Record<string, unknown>> = [
      { subject: 1 },
      { subject: 'a', context: 'x' },
      { subject: 'a', context: [] },
      { subject: 'a', colour: 'red' },
      { subject: 'users:peter\u0000' },
      { resource: 'resources:articles:1\r\nX-Evil: 1' },
      { action: 'a'.repeat(1025) },
    ];
    for (const input of cases) {
      const response = await app.admin.post<AccessError>(`${base('regex')}/allowed`, { json: input });
      expect(response.status, JSON.stringify(input).slice(0, 60)).toBe(400);
      expect(response.body).toMatchObject({ code: 400, status: 'Bad Request' });
    }
    const notObject = await app.admin.post(`${base('regex')}/allowed`, {
      rawBody: '[1,2]',
      headers: { 'content-type': 'application/json' },
    });
    expect(notObject.status).toBe(400);
    const broken = await app.admin.post(`${base('regex')}/allowed`, {
      rawBody: '{"subject":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
  });

  it('answers a hostile value against a backtracking-prone pattern quickly', async () => {
    await putPolicy('regex', {
      id: 'redos',
      effect: 'allow',
      subjects: ['<.*>'],
      resources: ['<.*>:<.*>:<.*>:end', '<(a+)+b>'],
      actions: ['<.*>'],
    });
    const started = Date.now();
    expect((await allowed('regex', { subject: 'u', resource: `${':'.repeat(1000)}y`, action: 'a' })).status).toBe(403);
    expect((await allowed('regex', { subject: 'u', resource: `${'a'.repeat(1000)}c`, action: 'a' })).status).toBe(403);
    expect(Date.now() - started).toBeLessThan(2000);
    await app.admin.delete(`${base('regex')}/policies/redos`);
  });
});

describe('routing and authentication', () => {
  it('answers 404 in the access error shape for an unknown flavor, on every route', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['POST', '/allowed', {}],
      ['GET', '/policies'],
      ['PUT', '/policies', policyBody()],
      ['GET', '/policies/x'],
      ['DELETE', '/policies/x'],
      ['GET', '/roles'],
      ['PUT', '/roles', { id: 'r' }],
      ['GET', '/roles/x'],
      ['DELETE', '/roles/x'],
      ['PUT', '/roles/x/members', { members: ['a'] }],
      ['DELETE', '/roles/x/members/a'],
    ];
    for (const [method, path, json] of routes) {
      const response = await app.admin.request<AccessError>(method, `${base('wildcard')}${path}`, json === undefined ? {} : { json });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body).toMatchObject({ code: 404, status: 'Not Found', details: [] });
      expect(typeof response.body.request).toBe('string');
    }
    expect((await app.admin.get(`${base('REGEX')}/policies`)).status).toBe(404);
  });

  it('answers 401 without the admin token, on every route', async () => {
    for (const [method, path] of [
      ['POST', '/allowed'],
      ['GET', '/policies'],
      ['PUT', '/policies'],
      ['GET', '/policies/x'],
      ['DELETE', '/policies/x'],
      ['GET', '/roles'],
      ['PUT', '/roles'],
      ['GET', '/roles/x'],
      ['DELETE', '/roles/x'],
      ['PUT', '/roles/x/members'],
      ['DELETE', '/roles/x/members/a'],
    ] as const) {
      const options = method === 'GET' || method === 'DELETE' ? {} : { json: {} };
      const response = await app.anonymousAdmin.request<AccessError>(method, `${base('regex')}${path}`, options);
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body.code).toBe(401);
      const wrong = await app.anonymousAdmin.withToken('not-the-token').request(method, `${base('regex')}${path}`, options);
      expect(wrong.status).toBe(401);
    }
  });

  it('is not served on the public listener (404), even with the admin token', async () => {
    expect((await app.public.withToken(TEST_ADMIN_TOKEN).get(`${base('regex')}/policies`)).status).toBe(404);
    expect((await app.public.withToken(TEST_ADMIN_TOKEN).post(`${base('regex')}/allowed`, { json: {} })).status).toBe(404);
  });

  it('is also served under /admin on the admin listener', async () => {
    await putPolicy('exact', policyBody({ id: 'prefixed' }));
    expect((await app.admin.get(`/admin${base('exact')}/policies/prefixed`)).status).toBe(200);
    expect((await app.admin.get<AccessError>(`/admin${base('exact')}/policies/unknown`)).body).toMatchObject({
      code: 404,
      id: 'policy_not_found',
    });
  });
});
