import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RouteAuditService } from '../../src/common/auth/route-audit.service.js';
import { hookArraysOf } from '../../src/common/http/adapter-hooks.js';
import { bootApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.js';
import type { HttpClient } from '../support/http.js';
import { ProbeModule } from '../support/probe.module.js';

let app: TestApp;

beforeAll(async () => {
  app = await bootApp({ BODY_LIMIT: '4kb' }, { extraModules: [ProbeModule] });
});

afterAll(async () => {
  await app.close();
});

describe('listeners', () => {
  it('serves health on both the public and the admin listener', async () => {
    for (const client of [app.public, app.anonymousAdmin]) {
      const alive = await client.get('/health/alive');
      expect(alive.status).toBe(200);
      expect(alive.body).toEqual({ status: 'ok' });
      const ready = await client.get('/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: 'ok' });
    }
  });

  it('answers every form of the liveness probe on both listeners, with a request id', async () => {
    for (const [client, path] of [
      [app.public, '/health/alive'],
      [app.public, '/health/alive?probe=1'],
      [app.anonymousAdmin, '/health/alive'],
      [app.anonymousAdmin, '/admin/health/alive'],
    ] as const) {
      const response = await client.get(path, { headers: { 'x-request-id': 'probe-1' } });
      expect(response.status, path).toBe(200);
      expect(response.body).toEqual({ status: 'ok' });
      expect(response.headers.get('x-request-id')).toBe('probe-1');
    }
    const head = await app.public.request('HEAD', '/health/alive');
    expect(head.status).toBe(200);
    expect((await app.public.get('/admin/health/alive')).status).toBe(404);
    expect((await app.public.request('POST', '/health/alive')).status).toBe(404);
  });

  it('never answers an admin route on the public listener', async () => {
    const onPublic = await app.public.withToken(TEST_ADMIN_TOKEN).get('/version');
    expect(onPublic.status).toBe(404);
    expect(
      await app.public
        .withToken(TEST_ADMIN_TOKEN)
        .get('/clients/_probe')
        .then((r) => r.status),
    ).toBe(404);
    expect((await app.public.get('/metrics/prometheus')).status).toBe(404);
  });

  it('answers admin paths under /admin on the admin listener only', async () => {
    const plain = await app.admin.get('/version');
    const prefixed = await app.admin.get('/admin/version');
    expect(plain.status).toBe(200);
    expect(prefixed.status).toBe(200);
    expect(prefixed.body).toEqual(plain.body);
    expect((plain.body as { version: string }).version).toMatch(/^\d+\.\d+\.\d+/);
    expect((await app.public.withToken(TEST_ADMIN_TOKEN).get('/admin/version')).status).toBe(404);
  });

  it('keeps the proxy listener closed by default', () => {
    expect(app.running.urls.proxy).toBeUndefined();
  });
});

describe('request ids', () => {
  it('echoes a valid X-Request-Id and puts it in error bodies', async () => {
    const response = await app.public.get('/nowhere', { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(response.headers.get('x-request-id')).toBe('trace-abc.123');
    expect((response.body as { request_id: string }).request_id).toBe('trace-abc.123');
  });

  it('replaces an invalid X-Request-Id with a generated one', async () => {
    const response = await app.public.get('/health/alive', { headers: { 'x-request-id': 'bad id with spaces' } });
    const id = response.headers.get('x-request-id');
    expect(id).not.toBe('bad id with spaces');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('generates an id when none is given', async () => {
    const [a, b] = await Promise.all([app.public.get('/health/alive'), app.public.get('/health/alive')]);
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});

describe('admin guard', () => {
  it('refuses admin routes without a token, with a wrong token, or with a malformed header', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token-0123456789' },
      { authorization: `Basic ${TEST_ADMIN_TOKEN}` },
      { authorization: `Bearer` },
    ];
    for (const headers of attempts) {
      const response = await app.anonymousAdmin.get('/version', { headers });
      expect(response.status).toBe(401);
      expect((response.body as { error: string }).error).toBe('unauthorized');
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('accepts the admin token', async () => {
    expect((await app.admin.get('/version')).status).toBe(200);
  });

  it('refuses the plain admin routes (check, ACP allowed) the same way, in the access family, before the handler reads its input', async () => {
    const check = '/check?namespace=files&object=doc&relation=view&subject=alice';
    const requests = [
      (client: HttpClient) => client.get(check),
      (client: HttpClient) => client.get(`/admin${check}`),
      (client: HttpClient) => client.post('/relation-tuples/check', { json: { namespace: 'files' } }),
      (client: HttpClient) =>
        client.post('/engines/acp/service/exact/allowed', { json: { subject: 'alice', action: 'read', resource: 'doc' } }),
      (client: HttpClient) => client.post('/engines/acp/service/bogus/allowed', { json: {} }),
    ];
    for (const client of [app.anonymousAdmin, app.anonymousAdmin.withToken('wrong-token-0123456789')]) {
      for (const request of requests) {
        const response = await request(client);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer realm="admin"');
        expect(response.headers.get('cache-control')).toBe('no-store');
        expect(response.body).toMatchObject({ id: 'unauthorized', code: 401, details: [] });
      }
    }
  });

  it('answers the plain admin routes with the admin token, under /admin too', async () => {
    const check = '/check?namespace=files&object=doc&relation=view&subject=alice';
    for (const path of [check, `/admin${check}`, `/admin/relation-tuples${check}`]) {
      const response = await app.admin.get(path);
      expect(response.status, path).toBe(403);
      expect(response.text).toBe('{"allowed":false}');
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    }
    const allowed = await app.admin.post('/admin/engines/acp/service/exact/allowed', {
      json: { subject: 'alice', action: 'read', resource: 'doc' },
    });
    expect(allowed.status).toBe(403);
    expect(allowed.body).toEqual({ allowed: false });
    expect((await app.public.withToken(TEST_ADMIN_TOKEN).get(check)).status).toBe(404);
    expect((await app.public.withToken(TEST_ADMIN_TOKEN).get(`/admin${check}`)).status).toBe(404);
  });

  it('marks every registered route with an auth marker and a listener', () => {
    const routes = app.running.app.get(RouteAuditService).routes();
    expect(routes.length).toBeGreaterThan(5);
    for (const route of routes) {
      expect(route.auth, `${route.method} ${route.path}`).toMatch(/^(admin|admin_or_client|bearer|public)$/);
      expect(route.listeners?.length, `${route.method} ${route.path}`).toBeGreaterThan(0);
    }
    const publicOnAdmin = routes.filter((route) => route.auth === 'public' && route.listeners?.includes('admin'));
    expect(publicOnAdmin.map((route) => route.path).sort()).toEqual(['/health/ready', '/metrics/prometheus']);
  });

  it('knows the plain Fastify routes with their access and listeners', () => {
    const plain = app.running.app.get(RouteAuditService).plainRoutes();
    const summary = plain.map((route) => `${route.method} ${route.url} ${route.access} ${route.listeners.join('|')}`);
    expect(summary).toEqual(
      expect.arrayContaining([
        'GET /health/alive public public|admin',
        'GET /.well-known/jwks.json public public',
        'GET /.well-known/jwks.json public admin|proxy',
        'GET /.well-known/openid-configuration public public',
        'POST /oauth2/token public public',
        'GET /sessions/whoami public public',
        'POST /webhooks/directory-sync/:connectionId public public',
        'GET /decisions allowed_peers admin',
        'POST /decisions/* allowed_peers admin',
        'GET /check admin admin',
        'POST /check admin admin',
        'GET /relation-tuples/check admin admin',
        'POST /relation-tuples/check admin admin',
        'POST /engines/acp/service/:flavor/allowed admin admin',
      ]),
    );
  });
});

describe('metrics', () => {
  it('exposes process metrics and an HTTP histogram by route template', async () => {
    await app.public.get('/health/ready');
    await app.admin.get('/clients/_probe/boom');
    const response = await app.anonymousAdmin.get('/metrics/prometheus');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(response.text).toContain('process_cpu_user_seconds_total');
    expect(response.text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/health\/ready",status_code="200",listener="public"\} [1-9]/,
    );
    expect(response.text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/clients\/_probe\/boom",status_code="500",listener="admin"\} [1-9]/,
    );
  });
});

type Shape = 'oauth' | 'identity' | 'access';
const FAMILIES: ReadonlyArray<readonly [Shape, string]> = [
  ['oauth', '/clients/_probe'],
  ['identity', '/identities/_probe'],
  ['access', '/relation-tuples/_probe'],
];

/** Reads status, code and request id from a body of the given family, failing if the shape is wrong. */
function readError(shape: Shape, body: unknown): { status: number; code: string; request: string; text: string } {
  const text = JSON.stringify(body);
  switch (shape) {
    case 'oauth': {
      const b = body as Record<string, unknown>;
      expect(Object.keys(b)).toEqual(expect.arrayContaining(['error', 'error_description', 'status_code', 'request_id']));
      return { status: b['status_code'] as number, code: b['error'] as string, request: b['request_id'] as string, text };
    }
    case 'identity': {
      const e = (body as { error: Record<string, unknown> }).error;
      expect(Object.keys(e)).toEqual(expect.arrayContaining(['id', 'code', 'status', 'reason', 'message', 'request']));
      return { status: e['code'] as number, code: e['id'] as string, request: e['request'] as string, text };
    }
    case 'access': {
      const b = body as Record<string, unknown>;
      expect(Object.keys(b)).toEqual(expect.arrayContaining(['id', 'code', 'status', 'reason', 'message', 'request', 'details']));
      expect(Array.isArray(b['details'])).toBe(true);
      return { status: b['code'] as number, code: b['id'] as string, request: b['request'] as string, text };
    }
  }
}

describe.each(FAMILIES)('error shape of the %s family', (shape, base) => {
  async function expectError(response: { status: number; body: unknown; headers: Headers }, status: number, code: string): Promise<string> {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain('application/json');
    const error = readError(shape, response.body);
    expect(error.status).toBe(status);
    expect(error.code).toBe(code);
    expect(error.request).toBe(response.headers.get('x-request-id'));
    return error.text;
  }

  it('400 for malformed JSON', async () => {
    await expectError(
      await app.admin.post(base, { rawBody: '{"name": ', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_request',
    );
  });

  it('400 naming the field for a validation failure, with details', async () => {
    const response = await app.admin.post(base, { json: { name: 'x', count: 99 } });
    const text = await expectError(response, 400, 'invalid_request');
    expect(text).toContain('count');
  });

  it('400 for an unknown field', async () => {
    const text = await expectError(await app.admin.post(base, { json: { name: 'x', count: 1, extra: true } }), 400, 'invalid_request');
    expect(text).toContain('extra');
  });

  it('accepts a valid body', async () => {
    const response = await app.admin.post(base, { json: { name: 'x', count: 2 } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ name: 'x', count: 2 });
  });

  it('401 without credentials', async () => {
    await expectError(await app.anonymousAdmin.get(base), 401, 'unauthorized');
  });

  it('404 for an unknown route', async () => {
    await expectError(await app.admin.get(`${base}/nothing/here`), 404, 'not_found');
  });

  it('413 for an oversized body', async () => {
    await expectError(await app.admin.post(base, { json: { name: 'x'.repeat(8 * 1024), count: 1 } }), 413, 'payload_too_large');
  });

  it('415 for a content type the route does not take', async () => {
    await expectError(
      await app.admin.post(base, { rawBody: 'name=x', headers: { 'content-type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    );
  });

  it('500 without internals when a handler fails', async () => {
    const text = await expectError(await app.admin.get(`${base}/boom`), 500, 'internal_error');
    expect(text).not.toContain('secret');
    expect(text).not.toContain('debug');
  });

  it('500 without internals when the database fails', async () => {
    const text = await expectError(await app.admin.get(`${base}/database`), 500, 'internal_error');
    expect(text).not.toContain('table_that_does_not_exist');
    expect(text).not.toContain('debug');
  });
});

describe('errors raised while routing', () => {
  it('answers an over-long path parameter with 414 in the family shape', async () => {
    const response = await app.admin.get(`/clients/${'a'.repeat(2000)}`);
    expect(response.status).toBe(414);
    const error = readError('oauth', response.body);
    expect(error.code).toBe('uri_too_long');
    expect(error.request).toBe(response.headers.get('x-request-id'));
  });

  it('answers a malformed URL with 400 in the family shape', async () => {
    const response = await app.admin.get('/relation-tuples/%zz');
    expect(response.status).toBe(400);
    expect(readError('access', response.body).code).toBe('invalid_request');
  });
});

describe('request targets that are not a path', () => {
  /** One request written byte for byte (Node's clients refuse these targets): status line and body. */
  async function rawRequest(requestLine: string): Promise<{ status: number; body: string }> {
    const url = new URL(app.running.urls.public!);
    const socket = connect(Number(url.port), url.hostname);
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.write(`${requestLine}\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    await new Promise<void>((resolve, reject) => socket.on('close', () => resolve()).on('error', reject));
    const [head = '', body = ''] = received.split('\r\n\r\n');
    return { status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]), body };
  }

  it('sends `*path` and `OPTIONS *` to the not-found handler, which the router would serve as `/path` and `/`', async () => {
    expect((await rawRequest('GET /health/alive HTTP/1.1')).status).toBe(200);
    expect((await rawRequest('GET http://localhost/health/alive HTTP/1.1')).status).toBe(200);
    for (const line of ['GET *health/alive HTTP/1.1', 'OPTIONS * HTTP/1.1']) {
      const response = await rawRequest(line);
      expect(response.status, line).toBe(404);
      expect(JSON.parse(response.body).error, line).toBe('not_found');
    }
  });

  it("runs without the adapter's idle request hooks: only its routable-target hook is left", () => {
    const sources = hookArraysOf(app.running.app.getHttpAdapter().getInstance())!.onRequest.map(String);
    expect(sources.filter((hook) => hook.includes('isRoutableRequestTarget'))).toHaveLength(1);
    expect(sources.filter((hook) => /onRequestHook|return503OnClosing|corsHook|securityHook|versionExtractorErrors/.test(hook))).toEqual(
      [],
    );
  });
});

describe('EXPOSE_INTERNAL_ERRORS', () => {
  it('adds debug detail to 5xx bodies only when switched on', async () => {
    const exposing = await bootApp({ EXPOSE_INTERNAL_ERRORS: 'true' }, { extraModules: [ProbeModule] });
    try {
      const response = await exposing.admin.get('/clients/_probe/database');
      expect(response.status).toBe(500);
      expect((response.body as { debug?: string }).debug).toContain('table_that_does_not_exist');
      const notFound = await exposing.admin.get('/clients/_probe/nothing');
      expect((notFound.body as { debug?: string }).debug).toBeUndefined();
    } finally {
      await exposing.close();
    }
  });
});
