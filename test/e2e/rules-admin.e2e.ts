import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeNotifier } from '../../src/database/change-notifier.js';
import { RulesError, RulesService, type AccessRule, type RuleMatch } from '../../src/rules/index.js';
import { bootApp, type TestApp } from '../support/app.js';
import { freshDatabase, queryDatabase } from '../support/database.js';
import { aRuleDocument } from '../support/rule-builders.js';

interface AccessError {
  id: string;
  code: number;
  request: string;
  details: Array<Record<string, unknown>>;
}

let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  const databaseUrl = await freshDatabase();
  a = await bootApp({}, { databaseUrl });
  b = await bootApp({}, { databaseUrl });
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

function matchOn(app: TestApp, method: string, url: string): RuleMatch | string {
  try {
    return app.running.app.get(RulesService).match(method, new URL(url));
  } catch (error) {
    if (error instanceof RulesError) return error.code;
    throw error;
  }
}

async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function storedCount(): Promise<number> {
  const [row] = await queryDatabase<{ count: string }>(a.databaseUrl, 'SELECT count(*) AS count FROM access_rules');
  return Number(row!.count);
}

describe('rules admin API', () => {
  it('PUT creates (201), PUT again replaces (200); GET answers the rule in Oathkeeper’s wire shape', async () => {
    const created = await a.admin.put('/rules/crud-1', { json: aRuleDocument('crud-1', 'https://app.example/<.*>') });
    expect(created.status, created.text).toBe(201);
    const expected = {
      id: 'crud-1',
      version: '',
      description: '',
      match: { methods: ['GET'], url: 'https://app.example/<.*>' },
      authenticators: [{ handler: 'noop', config: null }],
      authorizer: { handler: 'allow', config: null },
      mutators: [{ handler: 'noop', config: null }],
      errors: [],
      upstream: { preserve_host: false, strip_path: '', url: '' },
    };
    expect(created.body).toEqual(expected);
    const replaced = await a.admin.put('/rules/crud-1', {
      json: aRuleDocument('crud-1', 'https://app.example/<.*>', {
        description: 'now described',
        upstream: { url: 'http://backend.internal/' },
      }),
    });
    expect(replaced.status, replaced.text).toBe(200);
    const fetched = await a.admin.get('/rules/crud-1');
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual({
      ...expected,
      description: 'now described',
      upstream: { preserve_host: false, strip_path: '', url: 'http://backend.internal/' },
    });
  });

  it('a body without id takes the id of the path; the PUT result round-trips through PUT', async () => {
    const { id: _id, ...withoutId } = aRuleDocument('ignored', 'https://roundtrip.example/');
    const first = await a.admin.put('/rules/roundtrip', { json: withoutId });
    expect(first.status, first.text).toBe(201);
    const again = await a.admin.put('/rules/roundtrip', { json: first.body });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it('a stored rule is in force on the instance that wrote it as soon as PUT answers, and on the others soon after', async () => {
    const response = await a.admin.put('/rules/spread', { json: aRuleDocument('spread', 'https://spread.example/items/<[0-9]+>') });
    expect(response.status).toBe(201);
    const here = matchOn(a, 'GET', 'https://spread.example/items/42?x=1');
    expect(typeof here === 'string' ? here : { id: here.rule.id, captures: here.captures }).toEqual({ id: 'spread', captures: ['42'] });
    await eventually(() => typeof matchOn(b, 'GET', 'https://spread.example/items/42') !== 'string');
    expect((await b.admin.get('/rules/spread')).status).toBe(200);

    expect((await b.admin.delete('/rules/spread')).status).toBe(204);
    expect(matchOn(b, 'GET', 'https://spread.example/items/42')).toBe('no_match');
    await eventually(() => matchOn(a, 'GET', 'https://spread.example/items/42') === 'no_match');
    expect((await a.admin.get('/rules/spread')).status).toBe(404);
  });

  it('tells change listeners on every instance which rules changed', async () => {
    const heardOnA: string[][] = [];
    const heardOnB: string[][] = [];
    a.running.app.get(RulesService).onChange((ids) => heardOnA.push([...ids]));
    b.running.app.get(RulesService).onChange((ids) => heardOnB.push([...ids]));
    expect((await a.admin.put('/rules/listened', { json: aRuleDocument('listened', 'https://listened.example/') })).status).toBe(201);
    expect(heardOnA).toContainEqual(['listened']);
    await eventually(() => heardOnB.some((ids) => ids.includes('listened')));
    heardOnB.length = 0;
    expect((await a.admin.delete('/rules/listened')).status).toBe(204);
    await eventually(() => heardOnB.some((ids) => ids.includes('listened')));
  });

  it('two rules matching one request: never a decision, the error names both', async () => {
    await a.admin.put('/rules/overlap-1', { json: aRuleDocument('overlap-1', 'https://overlap.example/<.*>') });
    await a.admin.put('/rules/overlap-2', { json: aRuleDocument('overlap-2', 'https://overlap.example/admin/<.*>') });
    let thrown: unknown;
    try {
      a.running.app.get(RulesService).match('GET', new URL('https://overlap.example/admin/x'));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RulesError);
    expect([(thrown as RulesError).code, (thrown as RulesError).details]).toEqual(['ambiguous', { rules: ['overlap-1', 'overlap-2'] }]);
    const single = matchOn(a, 'GET', 'https://overlap.example/public');
    expect(typeof single === 'string' ? single : single.rule.id).toBe('overlap-1');
  });

  it('DELETE answers 204, then 404; GET of an absent rule is 404 in the access shape', async () => {
    await a.admin.put('/rules/to-delete', { json: aRuleDocument('to-delete', 'https://delete.example/') });
    expect((await a.admin.delete('/rules/to-delete')).status).toBe(204);
    const again = await a.admin.delete<AccessError>('/rules/to-delete');
    expect([again.status, again.body.id, again.body.code]).toEqual([404, 'rule_not_found', 404]);
    const missing = await a.admin.get<AccessError>('/rules/never-was');
    expect([missing.status, missing.body.id]).toEqual([404, 'rule_not_found']);
    expect(missing.body.request).toBe(missing.headers.get('x-request-id'));
  });

  it('lists rules by id: 50 by default, at most 500, with offset; bad paging parameters are 400', async () => {
    await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const id = `page-${String(i).padStart(3, '0')}`;
        return a.admin.put(`/rules/${id}`, { json: aRuleDocument(id, `https://page.example/${i}`) });
      }),
    );
    const all = await a.admin.get<AccessRule[]>('/rules?limit=500');
    expect(all.status).toBe(200);
    const ids = all.body.map((rule) => rule.id);
    expect(ids).toEqual([...ids].sort());
    expect(ids.filter((id) => id.startsWith('page-'))).toHaveLength(60);
    const firstPage = await a.admin.get<AccessRule[]>('/rules');
    expect(firstPage.body).toHaveLength(50);
    expect(firstPage.body.map((rule) => rule.id)).toEqual(ids.slice(0, 50));
    const offset = await a.admin.get<AccessRule[]>('/rules?limit=5&offset=10');
    expect(offset.body.map((rule) => rule.id)).toEqual(ids.slice(10, 15));
    expect((await a.admin.get<AccessRule[]>('/rules?limit=100000')).body).toHaveLength(Math.min(ids.length, 500));
    for (const bad of ['limit=0', 'limit=-1', 'limit=abc', 'offset=1.5', 'limit=1&limit=2']) {
      const response = await a.admin.get<AccessError>(`/rules?${bad}`);
      expect(response.status, bad).toBe(400);
      expect(typeof response.body.code, bad).toBe('number');
    }
  });

  it('every bad rule is a 400 in the access shape and nothing is written', async () => {
    const before = await storedCount();
    const rule = (overrides: Record<string, unknown>): Record<string, unknown> => aRuleDocument('bad', 'https://bad.example/', overrides);
    const bodies: Array<[string, unknown]> = [
      ['unknown member', rule({ priority: 1 })],
      ['unknown match member', rule({ match: { methods: ['GET'], url: 'https://bad.example/', headers: { a: 'b' } } })],
      ['unknown method', rule({ match: { methods: ['BREW'], url: 'https://bad.example/' } })],
      ['no methods', rule({ match: { methods: [], url: 'https://bad.example/' } })],
      ['lookahead', rule({ match: { methods: ['GET'], url: 'https://bad.example/<(?!admin).*>' } })],
      ['escaping group', rule({ match: { methods: ['GET'], url: 'https://bad.example/<a)|(.*>' } })],
      ['no host', rule({ match: { methods: ['GET'], url: '/path/only' } })],
      ['upstream not a URL', rule({ upstream: { url: 'not a url' } })],
      ['no authenticators', rule({ authenticators: [] })],
      ['no mutators', rule({ mutators: [] })],
      ['config not an object', rule({ authorizer: { handler: 'allow', config: 'x' } })],
      ['id differs from path', rule({ id: 'other' })],
      ['NUL in description', rule({ description: 'a\u0000b' })],
      ['array body', [rule({})]],
      ['string body', 'rule'],
    ];
    for (const [name, body] of bodies) {
      const response = await a.admin.put<AccessError>('/rules/bad', { json: body });
      expect(response.status, `${name}: ${response.text}`).toBe(400);
      expect(typeof response.body.id, name).toBe('string');
    }
    const malformed = await a.admin.put<AccessError>('/rules/bad', { rawBody: '{"id":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    const huge = await a.admin.put<AccessError>('/rules/bad', { json: rule({ description: 'x'.repeat(2 * 1024 * 1024) }) });
    expect([huge.status, huge.body.code]).toEqual([413, 413]);
    const longest = 'x'.repeat(190);
    expect((await a.admin.put(`/rules/${longest}`, { json: aRuleDocument(longest, 'https://longest.example/') })).status).toBe(201);
    expect((await a.admin.get(`/rules/${longest}`)).status).toBe(200);
    expect((await a.admin.delete(`/rules/${longest}`)).status).toBe(204);
    const longId = 'x'.repeat(191);
    const tooLong = await a.admin.put<AccessError>(`/rules/${longId}`, { json: aRuleDocument(longId, 'https://bad.example/') });
    expect(tooLong.status).toBe(400);
    // One script alone, Latin with Japanese, and digits with - _ . are ids like any other.
    for (const id of ['\u043f\u0440\u0430\u0432\u0438\u043b\u043e-1', 'api-\u30eb\u30fc\u30eb', 'rule_2.v-1']) {
      expect(
        (await a.admin.put(`/rules/${encodeURIComponent(id)}`, { json: aRuleDocument(id, 'https://script.example/') })).status,
        id,
      ).toBe(201);
      expect((await a.admin.delete(`/rules/${encodeURIComponent(id)}`)).status, id).toBe(204);
    }
    // Full-width, Kelvin, decomposed, bidi override; then Cyrillic а and Greek ο inside Latin words.
    for (const id of ['\uff41dmin', '\u212Aey', 'zoe\u0308', 'a\u202eb', 'p\u0430ypal-api', 'admin-r\u03bfute']) {
      const lookAlike = await a.admin.put<AccessError>(`/rules/${encodeURIComponent(id)}`, {
        json: aRuleDocument(id, 'https://bad.example/'),
      });
      expect([lookAlike.status, lookAlike.body.id], id).toEqual([400, 'invalid_rule']);
    }
    expect(await storedCount()).toBe(before);
    expect((await a.admin.get('/rules/bad')).status).toBe(404);
  });

  it('applies the validators another context registered: a rule they refuse is a 400 naming the path', async () => {
    a.running.app
      .get(RulesService)
      .registerValidator((rule) =>
        rule.authorizer.handler === 'forbidden-here' ? [{ path: 'authorizer.handler', message: 'unknown authorizer' }] : [],
      );
    const response = await a.admin.put<AccessError>('/rules/validated', {
      json: aRuleDocument('validated', 'https://validated.example/', { authorizer: { handler: 'forbidden-here' } }),
    });
    expect(response.status).toBe(400);
    // The decision pipeline's own validator refuses the unknown handler too; the probe's problem is among them.
    expect((response.body.details as { problems: unknown[] }[])[0]!.problems).toContainEqual({
      path: 'authorizer.handler',
      message: 'unknown authorizer',
    });
    expect((await a.admin.get('/rules/validated')).status).toBe(404);
  });

  it('stores rules sealed: a handler credential is never in the row, and a row moved to another id does not load', async () => {
    const secret = 'introspection-client-secret-0123456789';
    const body = aRuleDocument('sealed', 'https://sealed.example/', {
      mutators: [{ handler: 'header', config: { headers: { 'X-Api-Key': secret } } }],
    });
    expect((await a.admin.put('/rules/sealed', { json: body })).status).toBe(201);
    const rows = await queryDatabase<{ row: string }>(
      a.databaseUrl,
      "SELECT row_to_json(r)::text AS row FROM access_rules r WHERE id = 'sealed'",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.row).not.toContain(secret);
    expect(rows[0]!.row).not.toContain('sealed.example');
    expect(((await a.admin.get<AccessRule>('/rules/sealed')).body.mutators[0]!.config as Record<string, unknown>)['headers']).toEqual({
      'X-Api-Key': secret,
    });

    await queryDatabase(
      a.databaseUrl,
      "INSERT INTO access_rules (id, sealed_document) SELECT 'moved', sealed_document FROM access_rules WHERE id = 'sealed'",
    );
    await a.running.app.get(ChangeNotifier).publish('rules', 'moved');
    const reported = async (): Promise<string | undefined> =>
      (await a.admin.get<{ details?: Record<string, string> }>('/health/ready')).body.details?.['rules'];
    let detail: string | undefined;
    const deadline = Date.now() + 5000;
    while (!(detail = await reported())?.includes('"moved"') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(detail).toContain('"moved"');
    expect((await a.admin.get('/rules/moved')).status).toBe(404);
    await queryDatabase(a.databaseUrl, "DELETE FROM access_rules WHERE id IN ('moved', 'sealed')");
    await a.running.app.get(ChangeNotifier).publish('rules', '*');
  });

  it('needs the admin credential and answers only on the admin listener', async () => {
    expect((await a.anonymousAdmin.get('/rules')).status).toBe(401);
    expect((await a.anonymousAdmin.put('/rules/x', { json: aRuleDocument('x', 'https://x.example/') })).status).toBe(401);
    expect((await a.anonymousAdmin.delete('/rules/crud-1')).status).toBe(401);
    expect((await a.public.get('/rules')).status).toBe(404);
    expect((await a.admin.get('/admin/rules/crud-1')).status).toBe(200);
  });
});
