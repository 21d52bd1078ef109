import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { rawRequest } from '../support/decisions.js';
import { aRuleDocument } from '../support/rule-builders.js';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];

/** A noop → allow → noop rule for the usual methods; `overrides` replace top-level members. */
function aRule(id: string, url: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return aRuleDocument(id, url, { match: { methods: METHODS, url }, ...overrides });
}

const HOST = 'app.test';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly bytes: number;
  readonly sha256: string;
}

let app: TestApp;
let upstream: Server;
let upstreamUrl: string;
let rulesDir: string;
const seen: Seen[] = [];

/**
 * A real upstream on a loopback port: it records what reached it and echoes it back as JSON, or
 * streams a large body, or never answers. The proxy listener forwards to it per rule.
 */
function startUpstream(): Promise<Server> {
  const server = createServer((req, res) => {
    const hash = createHash('sha256');
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      hash.update(chunk);
    });
    req.on('end', () => {
      const record: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, bytes, sha256: hash.digest('hex') };
      seen.push(record);
      if (req.url?.startsWith('/hang')) return;
      if (req.url?.startsWith('/big')) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 7);
        for (let i = 0; i < 64; i += 1) res.write(chunk);
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'yes' });
      res.end(JSON.stringify(record));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  upstream = await startUpstream();
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  rulesDir = await mkdtemp(join(tmpdir(), 'latchkey-proxy-rules-'));
  const rules = [
    aRule('api', `http://${HOST}/api/<.*>`, {
      mutators: [{ handler: 'header', config: { headers: { 'X-Judged-Path': '{{ .MatchContext.URL.Path }}' } } }],
      upstream: { url: `${upstreamUrl}/base`, strip_path: '/api', preserve_host: false },
    }),
    aRule('keep-host', `http://${HOST}/keep/<.*>`, { upstream: { url: upstreamUrl, preserve_host: true } }),
    aRule('admin-area', `http://${HOST}/admin/<.*>`, {
      authorizer: { handler: 'deny' },
      upstream: { url: upstreamUrl, preserve_host: false },
    }),
    aRule('big', `http://${HOST}/big`, { upstream: { url: upstreamUrl, preserve_host: false } }),
    aRule('hang', `http://${HOST}/hang`, { upstream: { url: upstreamUrl, preserve_host: false } }),
    aRule('down', `http://${HOST}/down/<.*>`, { upstream: { url: 'http://127.0.0.1:9', preserve_host: false } }),
    aRule('judge-only', `http://${HOST}/judge-only`, { upstream: { url: '', preserve_host: false } }),
    // Introspection waits (a promise even when it is not responsible): the decision reaches the proxy later.
    aRule('big-after-wait', `http://${HOST}/bigwait`, {
      authenticators: [{ handler: 'oauth2_introspection' }, { handler: 'anonymous' }],
      upstream: { url: upstreamUrl, preserve_host: false },
    }),
    aRule('introspected', `http://${HOST}/introspected`, {
      authenticators: [{ handler: 'oauth2_introspection' }],
      upstream: { url: upstreamUrl, preserve_host: false },
    }),
  ];
  await writeFile(join(rulesDir, 'rules.json'), JSON.stringify(rules));
  app = await bootApp({ PROXY_PORT: '0', RULES_FILES: join(rulesDir, 'rules.json'), PROXY_TIMEOUT_MS: '1000' });
});

afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => upstream?.close(resolve));
  await rm(rulesDir, { recursive: true, force: true });
});

function proxy(method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string) {
  return rawRequest(app.running.urls.proxy!, method, path, { host: HOST, ...headers }, body);
}

describe('the reverse proxy', () => {
  it('forwards an allowed request with strip_path, the upstream Host, X-Forwarded-* and the mutators headers', async () => {
    const response = await proxy('GET', '/api/items/1?q=2');
    expect(response.status, response.text).toBe(200);
    expect(response.headers['x-upstream']).toBe('yes');
    const record = response.body as Seen;
    expect(record.url).toBe('/base/items/1?q=2');
    expect(record.headers.host).toBe(new URL(upstreamUrl).host);
    expect(record.headers['x-forwarded-host']).toBe(HOST);
    expect(record.headers['x-forwarded-proto']).toBe('http');
    expect(record.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(record.headers['x-judged-path']).toBe('/api/items/1');
  });

  it('drops hop-by-hop headers instead of passing them on', async () => {
    const response = await proxy('GET', '/api/hop', {
      'keep-alive': 'timeout=5',
      'proxy-connection': 'keep-alive',
      'proxy-authorization': 'Basic eDp5',
    });
    expect(response.status, response.text).toBe(200);
    const headers = (response.body as Seen).headers;
    expect(headers['keep-alive']).toBeUndefined();
    expect(headers['proxy-connection']).toBeUndefined();
    expect(headers['proxy-authorization']).toBeUndefined();
  });

  it('keeps the client Host with preserve_host', async () => {
    const response = await proxy('GET', '/keep/x');
    expect((response.body as Seen).headers.host).toBe(HOST);
    expect((response.body as Seen).url).toBe('/keep/x');
  });

  it('streams a large request body to the upstream and a large response back', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024 + 17, 1);
    const response = await proxy('POST', '/api/upload', { 'content-type': 'application/x-anything' }, body);
    expect(response.status, response.text).toBe(200);
    expect((response.body as Seen).bytes).toBe(body.length);
    expect((response.body as Seen).sha256).toBe(createHash('sha256').update(body).digest('hex'));
    const streamed = await proxy('GET', '/big');
    expect(streamed.status).toBe(200);
    expect(Buffer.byteLength(streamed.text, 'latin1')).toBeGreaterThanOrEqual(64 * 64 * 1024);
  });

  it('never forwards a denied request, nor a traversal into a denied area', async () => {
    const before = seen.length;
    for (const path of ['/admin/users', '/api/../admin/users', '/api/%2e%2e/admin/users', '//admin/users']) {
      const response = await proxy('GET', path);
      expect(response.status, path).toBe(403);
      expect(response.body).toMatchObject({ id: 'forbidden', code: 403 });
    }
    expect(seen.length).toBe(before);
  });

  it('refuses a dot segment hidden behind an encoded separator (400), and forwards other encoded slashes', async () => {
    const before = seen.length;
    for (const path of ['/api/..%2fadmin/users', '/api/%2e%2e%2fadmin/users', '/api/%2E%2e%5cadmin', '/api/.%2e%2Fadmin']) {
      const response = await proxy('GET', path);
      expect(response.status, path).toBe(400);
      expect(response.body).toMatchObject({ id: 'invalid_request', code: 400 });
    }
    expect(seen.length).toBe(before);
    expect((await proxy('GET', '/api/a%2fb')).status).toBe(200);
    expect(seen.at(-1)?.url).toBe('/base/a%2fb');
  });

  it('answers 502 upstream_unavailable in the access shape when the upstream is down or too slow', async () => {
    for (const path of ['/down/x', '/hang']) {
      const response = await proxy('GET', path);
      expect(response.status, response.text).toBe(502);
      expect(response.body).toMatchObject({ id: 'upstream_unavailable', code: 502 });
      expect((response.body as { request: string }).request).toBe(response.headers['x-request-id']);
    }
  });

  it('forwards a decision that had to wait, streaming the whole answer, and refuses one refused after a wait', async () => {
    const streamed = await proxy('GET', '/bigwait');
    expect(streamed.status).toBe(200);
    expect(Buffer.byteLength(streamed.text, 'latin1')).toBe(64 * 64 * 1024);
    const before = seen.length;
    const refused = await proxy('GET', '/introspected', { authorization: 'Bearer not-a-token' });
    expect(refused.status, refused.text).toBe(401);
    expect(refused.body).toMatchObject({ id: 'unauthorized', code: 401 });
    expect(seen.length).toBe(before);
  });

  it('answers 500 no_upstream for a rule without an upstream, and 404 no_match outside every rule', async () => {
    expect((await proxy('GET', '/judge-only')).body).toMatchObject({ id: 'no_upstream', code: 500 });
    expect((await proxy('GET', '/elsewhere')).body).toMatchObject({ id: 'no_match', code: 404 });
  });

  it('serves the id_token mutator JWKS on the proxy listener', async () => {
    const response = await rawRequest(app.running.urls.proxy!, 'GET', '/.well-known/jwks.json');
    expect(response.status).toBe(200);
    expect((response.body as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
  });
});
