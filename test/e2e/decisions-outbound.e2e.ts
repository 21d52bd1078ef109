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
const calls = { token: 0 };
/** How many of the next calls to each endpoint answer 503 before it answers properly. */
const flaky = { introspect: 0, hydrate: 0, refusePreToken: 0 };
const received: { method: string; path: string; body: unknown; authorization: string | undefined; tenant: string | undefined }[] = [];

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
      const form = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
      const body: unknown = text === '' ? undefined : form ? Object.fromEntries(new URLSearchParams(text)) : JSON.parse(text);
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        body,
        authorization: req.headers.authorization,
        tenant: req.headers['x-tenant'] as string | undefined,
      });
      const reply = (status: number, payload?: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(payload === undefined ? '' : JSON.stringify(payload));
      };
      // A dependency that is down, or refuses oddly: /down/<status>[/...] answers that status, plus a
      // Retry-After of its own under /down/<status>/wait-<seconds>.
      const down = /^\/down\/(\d{3})(?:\/wait-(\d+))?/.exec(req.url ?? '');
      if (down !== null) {
        res.writeHead(Number(down[1]), down[2] === undefined ? {} : { 'retry-after': down[2] });
        return res.end();
      }
      if (req.url === '/jwks.json') return reply(200, JSON.parse(jwks));
      if (req.url === '/jwks-missing.json') return reply(404);
      if (req.url === '/jwks-down.json') return req.socket.destroy();
      if (req.url === '/authorize') return reply((body as { subject?: string }).subject === 'guest' ? 200 : 403);
      if (req.url === '/token') {
        calls.token += 1;
        const expected = `Basic ${Buffer.from('gate-client:gate-secret').toString('base64')}`;
        if (req.headers.authorization !== expected || (body as { grant_type?: string }).grant_type !== 'client_credentials')
          return reply(401);
        return reply(200, { access_token: 'pre-token', token_type: 'bearer', expires_in: 3600 });
      }
      if (req.url === '/introspect') {
        if (req.headers.authorization !== 'Bearer pre-token') return reply(401);
        if (flaky.refusePreToken > 0) {
          flaky.refusePreToken -= 1;
          return reply(401);
        }
        if (flaky.introspect > 0) {
          flaky.introspect -= 1;
          return reply(503);
        }
        const good = (body as { token?: string }).token === 'good-token';
        return reply(
          200,
          good ? { active: true, sub: 'intro-user', scope: '', client_id: 'c', token_type: 'access_token' } : { active: false },
        );
      }
      if (req.url === '/hydrate' && flaky.hydrate > 0) {
        flaky.hydrate -= 1;
        return reply(503);
      }
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
    PROXY_PORT: '0',
    DECISIONS_PIPELINE: JSON.stringify({
      authenticators: {
        jwt: { enabled: true },
        cookie_session: { enabled: true },
        bearer_token: { enabled: true },
        oauth2_introspection: { enabled: true },
        oauth2_client_credentials: { enabled: true },
      },
      authorizers: {
        remote_json: { enabled: true, config: { remote: `${remoteUrl}/authorize` } },
        keto_engine_acp_ory: { enabled: true },
      },
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
    aRuleDocument('remote-introspection', `http://${HOST}/introspected`, {
      authenticators: [
        {
          handler: 'oauth2_introspection',
          config: {
            introspection_url: `${remoteUrl}/introspect`,
            pre_authorization: { enabled: true, client_id: 'gate-client', client_secret: 'gate-secret', token_url: `${remoteUrl}/token` },
            retry: { max_delay: '20ms', give_up_after: '2s' },
          },
        },
      ],
      mutators: [{ handler: 'header', config: { headers: { 'X-Sub': '{{ print .Subject }}' } } }],
    }),
  );
  for (const status of DOWN_STATUSES) {
    for (const [kind, handlers] of Object.entries(downHandlers(`${remoteUrl}/down/${status}`))) {
      await put(aRuleDocument(`down-${kind}-${status}`, `http://${HOST}/down-${kind}-${status}`, handlers));
    }
  }
  for (const [kind, handlers] of Object.entries(downHandlers(`${remoteUrl}/down/503/wait-7`))) {
    await put(aRuleDocument(`wait-${kind}`, `http://${HOST}/wait-${kind}`, handlers));
  }
  for (const status of [400, 404]) {
    for (const kind of ['remote_json', 'keto_engine_acp_ory', 'hydrator', 'oauth2_introspection'] as const) {
      await put(
        aRuleDocument(`odd-${kind}-${status}`, `http://${HOST}/odd-${kind}-${status}`, downHandlers(`${remoteUrl}/down/${status}`)[kind]),
      );
    }
  }
  await put(
    aRuleDocument('remote-session', `http://${HOST}/session`, {
      match: { methods: ['GET', 'POST'], url: `http://${HOST}/session` },
      authenticators: [{ handler: 'cookie_session', config: { check_session_url: `${remoteUrl}/whoami` } }],
      mutators: [{ handler: 'header', config: { headers: { 'X-Sub': '{{ print .Subject }}', 'X-Team': '{{ .Extra.team }}' } } }],
    }),
  );
});

afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => remote?.close(resolve));
});

/** The statuses of a dependency that is down for now (its gateway's 502/503/504, its own crash, shedding load). */
const DOWN_STATUSES = [429, 500, 502, 503, 504] as const;

/** A JWT that names a key, so the jwt authenticator fetches its jwks_urls. */
let downToken = '';

/** For each handler kind that calls out, the rule members that make it call `url` and nothing else remote. */
function downHandlers(url: string): Record<string, Record<string, unknown>> {
  const session = { check_session_url: url, preserve_path: true };
  return {
    remote_json: { authorizer: { handler: 'remote_json', config: { remote: url, payload: '{"subject": "guest"}' } } },
    keto_engine_acp_ory: {
      authorizer: { handler: 'keto_engine_acp_ory', config: { base_url: url, required_action: 'read', required_resource: 'doc' } },
    },
    hydrator: { mutators: [{ handler: 'hydrator', config: { api: { url, retry: { max_delay: '10ms', give_up_after: '30ms' } } } }] },
    jwt: { authenticators: [{ handler: 'jwt', config: { jwks_urls: [`${url}/jwks.json`], allowed_algorithms: ['ES256'] } }] },
    oauth2_introspection: { authenticators: [{ handler: 'oauth2_introspection', config: { introspection_url: url } }] },
    introspection_pre_authorization: {
      authenticators: [
        {
          handler: 'oauth2_introspection',
          config: {
            introspection_url: `${remoteUrl}/introspect`,
            pre_authorization: { enabled: true, client_id: 'gate-client', client_secret: 'gate-secret', token_url: url },
            retry: { max_delay: '10ms', give_up_after: '30ms' },
          },
        },
      ],
    },
    cookie_session: { authenticators: [{ handler: 'cookie_session', config: session }] },
    bearer_token: { authenticators: [{ handler: 'bearer_token', config: session }] },
    oauth2_client_credentials: { authenticators: [{ handler: 'oauth2_client_credentials', config: { token_url: url } }] },
  };
}

/** The credentials each kind needs to reach its remote call. */
function credentialsFor(kind: string): Record<string, string> {
  switch (kind) {
    case 'jwt':
      return { authorization: `Bearer ${downToken}` };
    case 'oauth2_introspection':
    case 'introspection_pre_authorization':
      return { authorization: 'Bearer good-token' };
    case 'cookie_session':
      return { cookie: 'sid=good' };
    case 'bearer_token':
      return { 'x-session-token': 'some-session' };
    case 'oauth2_client_credentials':
      return { authorization: `Basic ${Buffer.from('gate-client:gate-secret').toString('base64')}` };
    default:
      return {};
  }
}

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

  it('oauth2_introspection pre-authorizes with client credentials once, and retries an endpoint that answers 503', async () => {
    flaky.introspect = 2;
    const first = await judge('/introspected', { authorization: 'Bearer good-token' });
    expect(first.status, first.text).toBe(200);
    expect(first.headers['x-sub']).toBe('intro-user');
    expect(flaky.introspect).toBe(0);
    expect((await judge('/introspected', { authorization: 'Bearer good-token' })).status).toBe(200);
    expect((await judge('/introspected', { authorization: 'Bearer other-token' })).status).toBe(401);
    expect(calls.token).toBe(1);
  });

  it('oauth2_introspection fetches a new pre-authorization token once the endpoint refuses the kept one', async () => {
    expect((await judge('/introspected', { authorization: 'Bearer good-token' })).status).toBe(200);
    const fetched = calls.token;
    flaky.refusePreToken = 1;
    const response = await judge('/introspected', { authorization: 'Bearer good-token' });
    expect(response.status, response.text).toBe(200);
    expect(calls.token).toBe(fetched + 1);
    expect(flaky.refusePreToken).toBe(0);
  });

  it('the hydrator retries an endpoint that answers 503', async () => {
    flaky.hydrate = 1;
    const response = await judge('/remote');
    expect(response.status, response.text).toBe(200);
    expect(flaky.hydrate).toBe(0);
  });

  it('cookie_session asks the checker with the judged request method and headers', async () => {
    const response = await rawRequest(app.running.urls.admin!, 'POST', '/decisions/session', {
      host: HOST,
      cookie: 'sid=good',
      'x-tenant': 'acme',
    });
    expect(response.status, response.text).toBe(200);
    expect(received.at(-1)).toMatchObject({ method: 'POST', path: '/session', tenant: 'acme' });
  });
});

describe('a dependency that answers 5xx is down for now', () => {
  beforeAll(async () => {
    downToken = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'remote-1' })
      .setSubject('svc-9')
      .setExpirationTime('5m')
      .sign(signingKey);
  });

  it('is a 503 dependency_unavailable with Retry-After for every handler kind that calls out, and each status', async () => {
    const seen: string[] = [];
    for (const status of DOWN_STATUSES) {
      for (const kind of Object.keys(downHandlers(''))) {
        const response = await judge(`/down-${kind}-${status}`, credentialsFor(kind));
        seen.push(`${kind} ${status}: ${response.status} ${(response.body as { id?: string }).id} ${response.headers['retry-after']}`);
      }
    }
    const expected = DOWN_STATUSES.flatMap((status) =>
      Object.keys(downHandlers('')).map((kind) => `${kind} ${status}: 503 dependency_unavailable 1`),
    );
    expect(seen).toEqual(expected);
  });

  it('passes on the Retry-After the dependency sent', async () => {
    for (const kind of Object.keys(downHandlers(''))) {
      const response = await judge(`/wait-${kind}`, credentialsFor(kind));
      expect([kind, response.status, response.headers['retry-after']], response.text).toEqual([kind, 503, '7']);
    }
  });

  it('answers the same on the proxy listener', async () => {
    const response = await rawRequest(app.running.urls.proxy!, 'GET', '/down-remote_json-503', { host: HOST });
    expect([response.status, (response.body as { id?: string }).id, response.headers['retry-after']], response.text).toEqual([
      503,
      'dependency_unavailable',
      '1',
    ]);
  });

  it('a 4xx outside the contract of a handler stays a 500 handler_failed', async () => {
    for (const status of [400, 404]) {
      for (const kind of ['remote_json', 'keto_engine_acp_ory', 'hydrator', 'oauth2_introspection']) {
        const response = await judge(`/odd-${kind}-${status}`, credentialsFor(kind));
        expect([kind, status, response.status, (response.body as { id?: string }).id], response.text).toEqual([
          kind,
          status,
          500,
          'handler_failed',
        ]);
        expect(response.headers['retry-after']).toBeUndefined();
      }
    }
  });
});

describe('outbound handlers disabled again', () => {
  it('keeps a stored rule naming them in force on an instance that does not enable them, answering 500', async () => {
    const rule = aRuleDocument('self-contained', `http://${HOST}/self-contained`, {
      authorizer: { handler: 'remote_json', config: { remote: `${remoteUrl}/authorize`, payload: '{"subject": "guest"}' } },
    });
    expect((await app.admin.put('/rules/self-contained', { json: rule })).status).toBe(201);
    expect((await judge('/self-contained')).status).toBe(200);
    const restricted = await bootApp({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' }, { databaseUrl: app.databaseUrl });
    try {
      const response = await rawRequest(restricted.running.urls.admin!, 'GET', '/decisions/self-contained', { host: HOST });
      expect(response.status, response.text).toBe(500);
      expect(response.body).toMatchObject({ id: 'rule_misconfigured', code: 500 });
      expect((await restricted.admin.get('/rules/self-contained')).status).toBe(200);
      const readiness = await restricted.admin.get<{ details?: Record<string, string> }>('/health/ready');
      expect(readiness.status).toBe(200);
      expect(readiness.body.details?.['rules']).toBeDefined();
    } finally {
      await restricted.close();
    }
  });
});
