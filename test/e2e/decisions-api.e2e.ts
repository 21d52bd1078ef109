import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { rawRequest, type RawResponse } from '../support/decisions.js';
import { aRuleDocument } from '../support/rule-builders.js';
import { basic, createClient, token } from '../support/oauth.js';
import { apiLogin, createPasswordIdentity, GOOD_PASSWORD } from '../support/self-service.js';

const NAMESPACES = JSON.stringify([{ name: 'docs', id: 1 }]);

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];

/** A noop → allow → noop rule for the usual methods; `overrides` replace top-level members. */
function aRule(id: string, url: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return aRuleDocument(id, url, { match: { methods: METHODS, url }, ...overrides });
}

const HOST = 'app.test';

let app: TestApp;
let rulesDir: string;
let identityId: string;
let sessionToken: string;
let client: { client_id: string; client_secret?: string };
let accessToken: string;

/**
 * The decision API over real HTTP: rules from a file and from the admin API, every in-process handler
 * with a real session, real access tokens, real tuples and policies, and the id_token mutator's JWT
 * verified against the admin listener's JWKS with jose.
 */
beforeAll(async () => {
  rulesDir = await mkdtemp(join(tmpdir(), 'latchkey-rules-'));
  const fileRules = [
    aRule('open', `http://${HOST}/open/<.*>`, {
      mutators: [
        {
          handler: 'header',
          config: {
            headers: { 'X-Path': '{{ .MatchContext.URL.Path }}', 'X-Capture': '{{ printIndex .MatchContext.RegexpCaptureGroups 0 }}' },
          },
        },
      ],
    }),
    aRule('admin-area', `http://${HOST}/admin/<.*>`, { authorizer: { handler: 'deny' } }),
    // Its authorizer would reach another host and is not enabled by name: in force, answering 500.
    aRule('switched-off', `http://${HOST}/switched-off`, {
      authorizer: { handler: 'remote_json', config: { remote: 'https://authz.example/', payload: '{}' } },
    }),
  ];
  await writeFile(join(rulesDir, 'rules.json'), JSON.stringify(fileRules));
  app = await bootApp({ NAMESPACES, RULES_FILES: join(rulesDir, 'rules.json'), OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' });

  identityId = await createPasswordIdentity(app, 'dora@example.com');
  const login = await apiLogin(app, 'dora@example.com', GOOD_PASSWORD);
  expect(login.status).toBe(200);
  sessionToken = login.body.session_token;

  client = await createClient(app, { grant_types: ['client_credentials'], response_types: [], scope: 'read write' });
  const issued = await token(app, { grant_type: 'client_credentials', scope: 'read' }, basic(client.client_id, client.client_secret!));
  expect(issued.status).toBe(200);
  accessToken = issued.body.access_token;

  expect(
    (await app.admin.put('/relation-tuples', { json: { namespace: 'docs', object: '7', relation: 'view', subject: client.client_id } }))
      .status,
  ).toBe(201);
  expect(
    (
      await app.admin.put('/engines/acp/service/exact/policies', {
        json: { id: 'p1', subjects: [identityId], resources: ['docs:7'], actions: ['get'], effect: 'allow' },
      })
    ).status,
  ).toBe(200);

  const putRule = async (rule: Record<string, unknown>): Promise<void> => {
    const response = await app.admin.put(`/rules/${String(rule['id'])}`, { json: rule });
    expect(response.status, response.text).toBe(201);
  };
  await putRule(
    aRule('session', `http://${HOST}/session/<[0-9]+>`, {
      authenticators: [{ handler: 'cookie_session' }, { handler: 'bearer_token' }],
      authorizer: {
        handler: 'keto_engine_acp_ory',
        config: { required_action: 'get', required_resource: 'docs:{{ printIndex .MatchContext.RegexpCaptureGroups 0 }}', flavor: 'exact' },
      },
      mutators: [
        { handler: 'header', config: { headers: { 'X-User': '{{ print .Subject }}', 'X-Email': '{{ .Extra.identity.traits.email }}' } } },
      ],
    }),
  );
  await putRule(
    aRule('token', `http://${HOST}/token/<[0-9]+>`, {
      authenticators: [{ handler: 'oauth2_introspection', config: { required_scope: ['read'], scope_strategy: 'exact' } }],
      authorizer: {
        handler: 'relation_tuple',
        config: { namespace: 'docs', object: '{{ printIndex .MatchContext.RegexpCaptureGroups 0 }}', relation: 'view' },
      },
      mutators: [{ handler: 'id_token', config: { claims: '{"aud": ["app"], "scope": {{ .Extra.scope | quote }}}', ttl: '5m' } }],
    }),
  );
  await putRule(
    aRule('client', `http://${HOST}/client/<.*>`, {
      authenticators: [{ handler: 'oauth2_client_credentials', config: { required_scope: ['read'] } }],
      mutators: [{ handler: 'cookie', config: { cookies: { client: '{{ print .Subject }}' } } }],
    }),
  );
  await putRule(aRule('jwt', `http://${HOST}/jwt/<.*>`, { authenticators: [{ handler: 'jwt', config: { target_audience: ['app'] } }] }));
  await putRule(
    aRule('anon', `http://${HOST}/anon<.*>`, {
      authenticators: [{ handler: 'anonymous' }],
      authorizer: { handler: 'deny' },
      errors: [
        {
          handler: 'redirect',
          config: { to: 'https://login.example/', when: [{ error: ['forbidden'], request: { header: { accept: ['text/html'] } } }] },
        },
        { handler: 'json' },
      ],
    }),
  );
  await putRule(
    aRule('basic', `http://${HOST}/basic`, {
      authenticators: [{ handler: 'unauthorized' }],
      errors: [{ handler: 'www_authenticate', config: { realm: 'gate' } }],
    }),
  );
});

afterAll(async () => {
  await app?.close();
  await rm(rulesDir, { recursive: true, force: true });
});

function judge(method: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(app.running.urls.admin!, method, `/decisions${path}`, { host: HOST, ...headers });
}

function expectAccessError(response: RawResponse, status: number, code: string): void {
  expect(response.status, response.text).toBe(status);
  expect(response.body).toMatchObject({ id: code, code: status });
  expect(Array.isArray((response.body as { details: unknown }).details)).toBe(true);
  expect((response.body as { request: string }).request).toBe(response.headers['x-request-id']);
}

describe('the decision API', () => {
  it('allows by a file rule and returns the mutators headers, for any method and the /admin prefix', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
      const response = await judge(method, '/open/a/b?x=1', method === 'POST' ? { 'content-type': 'text/weird' } : {});
      expect(response.status, response.text).toBe(200);
      expect(response.text).toBe('');
      expect(response.headers['x-path']).toBe('/open/a/b');
      expect(response.headers['x-capture']).toBe('a/b');
    }
    const prefixed = await rawRequest(app.running.urls.admin!, 'GET', '/admin/decisions/open/x', { host: HOST });
    expect(prefixed.status).toBe(200);
  });

  it('answers 404 no_match in the access shape when no rule matches, and 403 from a deny rule', async () => {
    expectAccessError(await judge('GET', '/nowhere'), 404, 'no_match');
    expectAccessError(await judge('GET', '/admin/users'), 403, 'forbidden');
  });

  it('judges a real session cookie or session token with the ACP engine, and forwards the identity', async () => {
    const byCookie = await judge('GET', '/session/7', { cookie: `service_session=${sessionToken}` });
    expect(byCookie.status, byCookie.text).toBe(200);
    expect(byCookie.headers['x-user']).toBe(identityId);
    expect(byCookie.headers['x-email']).toBe('dora@example.com');
    expect((await judge('GET', '/session/7', { 'x-session-token': sessionToken })).status).toBe(200);
    expectAccessError(await judge('GET', '/session/8', { cookie: `service_session=${sessionToken}` }), 403, 'forbidden');
    expectAccessError(await judge('GET', '/session/7', { cookie: 'service_session=forged' }), 401, 'unauthorized');
    expectAccessError(await judge('GET', '/session/7'), 401, 'unauthorized');
  });

  it('introspects a real access token, checks a real tuple, and adds an id_token that verifies against the JWKS', async () => {
    const allowed = await judge('GET', '/token/7', { authorization: `Bearer ${accessToken}` });
    expect(allowed.status, allowed.text).toBe(200);
    const jwt = /^Bearer (.+)$/.exec(String(allowed.headers['authorization']))![1]!;
    const jwks = createRemoteJWKSet(new URL(`${app.running.urls.admin!}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(jwt, jwks, { audience: 'app' });
    expect(payload.sub).toBe(client.client_id);
    expect(payload['scope']).toBe('read');
    expect(typeof payload.jti).toBe('string');

    const again = await judge('GET', '/token/7', { authorization: `Bearer ${accessToken}` });
    expect(again.headers['authorization']).toBe(allowed.headers['authorization']);
    expectAccessError(await judge('GET', '/token/8', { authorization: `Bearer ${accessToken}` }), 403, 'forbidden');
    expectAccessError(await judge('GET', '/token/7', { authorization: 'Bearer not-a-token' }), 401, 'unauthorized');
    expectAccessError(await judge('GET', '/token/7'), 401, 'unauthorized');
  });

  it('the jwt authenticator verifies the id_token mutator tokens with our own keys', async () => {
    const allowed = await judge('GET', '/token/7', { authorization: `Bearer ${accessToken}` });
    const jwt = String(allowed.headers['authorization']).slice('Bearer '.length);
    expect(decodeJwt(jwt).aud).toEqual(['app']);
    expect((await judge('GET', '/jwt/x', { authorization: `Bearer ${jwt}` })).status).toBe(200);
    const [header, body] = jwt.split('.');
    expectAccessError(await judge('GET', '/jwt/x', { authorization: `Bearer ${header}.${body}.AAAA` }), 401, 'unauthorized');
  });

  it('authenticates a real client with oauth2_client_credentials and sets the cookie mutator', async () => {
    const response = await judge('GET', '/client/x', { ...basic(client.client_id, client.client_secret!), cookie: 'keep=1' });
    expect(response.status, response.text).toBe(200);
    expect(response.headers['cookie']).toBe(`keep=1; client=${client.client_id}`);
    expectAccessError(await judge('GET', '/client/x', basic(client.client_id, 'wrong')), 401, 'unauthorized');
  });

  it('error handlers: redirect for browsers, json otherwise, www_authenticate with its realm', async () => {
    const browser = await judge('GET', '/anon', { accept: 'text/html' });
    expect(browser.status).toBe(302);
    expect(browser.headers['location']).toBe('https://login.example/');
    expectAccessError(await judge('GET', '/anon', { accept: 'application/json' }), 403, 'forbidden');
    const challenge = await judge('GET', '/basic');
    expectAccessError(challenge, 401, 'unauthorized');
    expect(challenge.headers['www-authenticate']).toBe('Basic realm="gate"');
  });

  it('refuses at load a rule naming a disabled outbound handler, an unknown handler or a bad template', async () => {
    const put = (rule: Record<string, unknown>) => app.admin.put(`/rules/${String(rule['id'])}`, { json: rule });
    for (const rule of [
      aRule('remote', `http://${HOST}/remote`, {
        authorizer: { handler: 'remote_json', config: { remote: 'https://authz.example/', payload: '{}' } },
      }),
      aRule('unknown', `http://${HOST}/unknown`, { mutators: [{ handler: 'magic' }] }),
      aRule('template', `http://${HOST}/template`, {
        mutators: [{ handler: 'header', config: { headers: { 'X-A': '{{ exec "id" }}' } } }],
      }),
    ]) {
      const response = await put(rule);
      expect(response.status, response.text).toBe(400);
      expect((await app.admin.get(`/rules/${String(rule['id'])}`)).status).toBe(404);
    }
  });

  it('keeps a file rule naming a disabled handler in force, answering 500, and reports it at load', async () => {
    expectAccessError(await judge('GET', '/switched-off'), 500, 'rule_misconfigured');
    expect((await judge('GET', '/open/still')).status).toBe(200);
    const readiness = await app.admin.get<{ status: string; details?: Record<string, string> }>('/health/ready');
    expect(readiness.status).toBe(200);
    expect(readiness.body.details?.['rules']).toBeDefined();
  });

  it('publishes its id_token keys on the admin listener JWKS, public parts only', async () => {
    const response = await app.anonymousAdmin.get<{ keys: Record<string, unknown>[] }>('/.well-known/jwks.json');
    expect(response.status).toBe(200);
    expect(response.body.keys.length).toBeGreaterThan(0);
    for (const key of response.body.keys) expect(key['d']).toBeUndefined();
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const unchanged = await app.anonymousAdmin.get('/.well-known/jwks.json', { headers: { 'if-none-match': etag } });
    expect(unchanged.status).toBe(304);
  });

  it('counts decisions per rule and outcome in the Prometheus metrics', async () => {
    await judge('GET', '/open/metrics');
    const metrics = await app.anonymousAdmin.get('/metrics/prometheus');
    expect(metrics.text).toMatch(/decisions_total\{rule="open",outcome="allowed",listener="admin"\} [1-9]/);
    expect(metrics.text).toMatch(/decisions_total\{rule="",outcome="no_match",listener="admin"\} [1-9]/);
  });
});

describe('S59: the decision API under attack', () => {
  it('normalises traversal, encoded dots and double slashes before matching', async () => {
    for (const path of [
      '/open/../admin/users',
      '/open/%2e%2e/admin/users',
      '/open/%2E%2E/admin/users',
      '//admin//users',
      '/open/./../admin/users',
    ]) {
      expectAccessError(await judge('GET', path), 403, 'forbidden');
    }
    const response = await judge('GET', '/open//a/./b');
    expect(response.status).toBe(200);
    expect(response.headers['x-path']).toBe('/open/a/b');
  });

  it('ignores X-Forwarded-* from a peer that is not a trusted proxy', async () => {
    const spoofed = await judge('GET', '/open/x', {
      'x-forwarded-method': 'GET',
      'x-forwarded-uri': '/admin/users',
      'x-forwarded-host': 'evil.test',
    });
    expect(spoofed.status).toBe(200);
    expect(spoofed.headers['x-path']).toBe('/open/x');
  });

  it('a URL matching two rules never allows: 500 ambiguous', async () => {
    expect((await app.admin.put('/rules/open-too', { json: aRule('open-too', `http://${HOST}/open/<x.*>`) })).status).toBe(201);
    expectAccessError(await judge('GET', '/open/xyz'), 500, 'ambiguous');
    expect((await app.admin.delete('/rules/open-too')).status).toBe(204);
  });

  it('refuses a malformed percent-encoding with a 400', async () => {
    expectAccessError(await judge('GET', '/open/%zz'), 400, 'invalid_request');
  });

  it('refuses a dot segment hidden behind an encoded separator with a 400, and keeps other encoded slashes', async () => {
    for (const path of ['/open/..%2fadmin', '/open/%2e%2e%2fadmin', '/open/%2E%2e%5cadmin', '/open/.%2e%2Fadmin', '/open/x/..%5Cadmin'])
      expectAccessError(await judge('GET', path), 400, 'invalid_request');
    expect((await judge('GET', '/open/a%2fb')).status).toBe(200);
  });
});

describe('trusted proxies and allowed peers', () => {
  let gated: TestApp;

  beforeAll(async () => {
    gated = await bootApp({ RULES_FILES: join(rulesDir, 'rules.json'), DECISIONS_TRUSTED_PROXIES: '127.0.0.0/8' });
  });

  afterAll(async () => {
    await gated?.close();
  });

  it('honours X-Forwarded-Method, -Host and -Uri from a trusted proxy', async () => {
    const forwarded = (uri: string) =>
      rawRequest(gated.running.urls.admin!, 'GET', '/decisions', {
        host: 'gateway.internal',
        'x-forwarded-method': 'POST',
        'x-forwarded-host': HOST,
        'x-forwarded-uri': uri,
      });
    const allowed = await forwarded('/open/q?x=1');
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.headers['x-path']).toBe('/open/q');
    expect((await forwarded('/open/../admin/x')).status).toBe(403);
  });

  it('refuses a peer outside DECISIONS_ALLOWED_PEERS with 403', async () => {
    const closed = await bootApp({ RULES_FILES: join(rulesDir, 'rules.json'), DECISIONS_ALLOWED_PEERS: '10.0.0.0/8' });
    try {
      const response = await rawRequest(closed.running.urls.admin!, 'GET', '/decisions/open/x', { host: HOST });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ id: 'peer_not_allowed' });
    } finally {
      await closed.close();
    }
  });
});
