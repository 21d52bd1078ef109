import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { rawRequest, type RawResponse } from '../support/decisions.js';
import { aRuleDocument } from '../support/rule-builders.js';

const HOST = 'app.test';

let app: TestApp;
let remote: Server;
let remoteUrl: string;
let signingKey: CryptoKey;
const received: { path: string; body: unknown; authorization: string | undefined }[] = [];

/**
 * The handlers that reach another host, against a real HTTP server on a loopback port (private
 * addresses allowed for the test): remote_json, hydrator, jwt with jwks_urls, and cookie_session with
 * a check_session_url elsewhere. They run only once enabled in DECISIONS_PIPELINE.
 */
beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  signingKey = privateKey;
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'remote-1', alg: 'ES256', use: 'sig' }] });
  remote = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text === '' ? undefined : JSON.parse(text);
      received.push({ path: req.url ?? '', body, authorization: req.headers.authorization });
      const reply = (status: number, payload?: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(payload === undefined ? '' : JSON.stringify(payload));
      };
      if (req.url === '/jwks.json') return reply(200, JSON.parse(jwks));
      if (req.url === '/jwks-missing.json') return reply(404);
      if (req.url === '/jwks-down.json') return req.socket.destroy();
      if (req.url === '/authorize') return reply((body as { subject?: string }).subject === 'guest' ? 200 : 403);
      if (req.url === '/hydrate') {
        const session = body as { subject: string; extra: Record<string, unknown> };
        return reply(200, { subject: session.subject, extra: { ...session.extra, plan: 'gold' }, header: { 'X-Plan': ['gold'] } });
      }
      if (req.url?.startsWith('/session')) {
        return req.headers.cookie === 'sid=good' ? reply(200, { subject: 'remote-user', extra: { team: 'a' } }) : reply(401);
      }
      return reply(404);
    });
  });
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
  app = await bootApp({
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
    DECISIONS_PIPELINE: JSON.stringify({
      authenticators: { jwt: { enabled: true }, cookie_session: { enabled: true } },
      authorizers: { remote_json: { enabled: true, config: { remote: `${remoteUrl}/authorize` } } },
      mutators: { hydrator: { enabled: true } },
    }),
  });
  const put = async (rule: Record<string, unknown>): Promise<void> => {
    const response = await app.admin.put(`/rules/${String(rule['id'])}`, { json: rule });
    expect(response.status, response.text).toBe(201);
  };
  await put(
    aRuleDocument('remote', `http://${HOST}/remote`, {
      authenticators: [{ handler: 'anonymous', config: { subject: 'guest' } }],
      authorizer: {
        handler: 'remote_json',
        config: { payload: '{"subject": {{ .Subject | quote }}, "path": {{ .MatchContext.URL.Path | quote }}}' },
      },
      mutators: [
        { handler: 'hydrator', config: { api: { url: `${remoteUrl}/hydrate`, auth: { basic: { username: 'gate', password: 'pw' } } } } },
        { handler: 'header', config: { headers: { 'X-Plan-Seen': '{{ .Extra.plan }}' } } },
      ],
    }),
  );
  await put(
    aRuleDocument('denied', `http://${HOST}/denied`, {
      authorizer: { handler: 'remote_json', config: { payload: '{"subject": "other"}' } },
    }),
  );
  await put(
    aRuleDocument('remote-jwt', `http://${HOST}/jwt`, {
      authenticators: [
        {
          handler: 'jwt',
          config: { jwks_urls: [`${remoteUrl}/jwks.json`], allowed_algorithms: ['ES256'], trusted_issuers: ['https://idp.example'] },
        },
      ],
      mutators: [{ handler: 'header', config: { headers: { 'X-Sub': '{{ print .Subject }}' } } }],
    }),
  );
  for (const [id, file] of [
    ['jwt-missing-keys', 'jwks-missing.json'],
    ['jwt-down-keys', 'jwks-down.json'],
  ] as const) {
    await put(
      aRuleDocument(id, `http://${HOST}/${id}`, {
        authenticators: [{ handler: 'jwt', config: { jwks_urls: [`${remoteUrl}/${file}`], allowed_algorithms: ['ES256'] } }],
      }),
    );
  }
  await put(
    aRuleDocument('remote-session', `http://${HOST}/session`, {
      authenticators: [{ handler: 'cookie_session', config: { check_session_url: `${remoteUrl}/whoami` } }],
      mutators: [{ handler: 'header', config: { headers: { 'X-Sub': '{{ print .Subject }}', 'X-Team': '{{ .Extra.team }}' } } }],
    }),
  );
});

afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => remote?.close(resolve));
});

function judge(path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(app.running.urls.admin!, 'GET', `/decisions${path}`, { host: HOST, ...headers });
}

describe('outbound handlers, once enabled', () => {
  it('remote_json posts the rendered payload; the hydrator replaces extra and adds headers', async () => {
    const response = await judge('/remote');
    expect(response.status, response.text).toBe(200);
    expect(response.headers['x-plan']).toBe('gold');
    expect(response.headers['x-plan-seen']).toBe('gold');
    expect(received.find((entry) => entry.path === '/authorize')?.body).toEqual({ subject: 'guest', path: '/remote' });
    const hydrate = received.find((entry) => entry.path === '/hydrate');
    expect(hydrate?.authorization).toBe(`Basic ${Buffer.from('gate:pw').toString('base64')}`);
  });

  it('remote_json: a 403 from the remote authorizer is a 403', async () => {
    const response = await judge('/denied');
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ id: 'forbidden' });
  });

  it('jwt verifies against remote jwks_urls and checks the issuer', async () => {
    const sign = (issuer: string) =>
      new SignJWT({ scope: 'read' })
        .setProtectedHeader({ alg: 'ES256', kid: 'remote-1' })
        .setSubject('svc-9')
        .setIssuer(issuer)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(signingKey);
    const good = await judge('/jwt', { authorization: `Bearer ${await sign('https://idp.example')}` });
    expect(good.status, good.text).toBe(200);
    expect(good.headers['x-sub']).toBe('svc-9');
    const foreign = await judge('/jwt', { authorization: `Bearer ${await sign('https://evil.example')}` });
    expect(foreign.status).toBe(401);
  });

  it('jwt: a JWKS URL that fails is not fetched again for every token, and answers as before meanwhile', async () => {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'remote-1' })
      .setSubject('svc-9')
      .setExpirationTime('5m')
      .sign(signingKey);
    const fetches = (path: string) => received.filter((entry) => entry.path === path).length;
    for (const [id, path, status, code] of [
      ['jwt-missing-keys', '/jwks-missing.json', 500, 'handler_failed'],
      ['jwt-down-keys', '/jwks-down.json', 503, 'dependency_unavailable'],
    ] as const) {
      const first = await judge(`/${id}`, { authorization: `Bearer ${token}` });
      expect([first.status, (first.body as { id?: string }).id], first.text).toEqual([status, code]);
      const fetched = fetches(path);
      expect(fetched).toBeGreaterThan(0);
      for (let i = 0; i < 5; i += 1) {
        const again = await judge(`/${id}`, { authorization: `Bearer ${token}` });
        expect([again.status, (again.body as { id?: string }).id]).toEqual([status, code]);
      }
      expect(fetches(path)).toBe(fetched);
    }
  });

  it('cookie_session forwards the cookies to a check_session_url elsewhere, with the request path', async () => {
    const good = await judge('/session', { cookie: 'sid=good' });
    expect(good.status, good.text).toBe(200);
    expect(good.headers['x-sub']).toBe('remote-user');
    expect(good.headers['x-team']).toBe('a');
    expect(received.some((entry) => entry.path === '/session')).toBe(true);
    expect((await judge('/session', { cookie: 'sid=bad' })).status).toBe(401);
  });
});
