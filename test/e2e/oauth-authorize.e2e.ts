import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import type { HttpResponse } from '../support/http.js';
import { OAuthBrowser, pkcePair, queryParam, registerClient, responseParams, type RegisteredClient } from '../support/oauth-browser.js';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const JSON_ACCEPT = { accept: 'application/json' };
const CALLBACK = 'https://client.example/cb';
const ALL_RESPONSE_TYPES = ['code', 'token', 'id_token', 'id_token token', 'code id_token', 'code token', 'code id_token token'];

let app: TestApp;
let client: RegisteredClient;
let publicClient: RegisteredClient;

beforeAll(async () => {
  app = await bootApp();
  client = await registerClient(app, {
    redirect_uris: [CALLBACK, 'https://client.example/cb?tenant=7', 'http://127.0.0.1/cb'],
    grant_types: ['authorization_code', 'implicit', 'refresh_token'],
    response_types: ALL_RESPONSE_TYPES,
    scope: 'openid offline_access profile photos.*',
    audience: ['https://api.example/v1'],
  });
  publicClient = await registerClient(app, { token_endpoint_auth_method: 'none', redirect_uris: [CALLBACK] });
});

afterAll(async () => {
  await app?.close();
});

function query(overrides: Record<string, string | undefined> = {}, base: RegisteredClient = client): Record<string, string> {
  const merged: Record<string, string | undefined> = {
    client_id: base.client_id,
    redirect_uri: CALLBACK,
    response_type: 'code',
    scope: 'openid',
    state: 'state-0123456789',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function authorize(
  overrides: Record<string, string | undefined> = {},
  headers: Record<string, string> = JSON_ACCEPT,
): Promise<HttpResponse> {
  return app.public.get(`/oauth2/auth?${new URLSearchParams(query(overrides)).toString()}`, { headers });
}

/** A refusal shown here: the status, the code, and no redirect anywhere. */
function expectShown(response: HttpResponse, status: number, error: string): void {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('location')).toBeNull();
  expect((response.body as { error: string }).error).toBe(error);
}

/** A refusal sent to the client: a 302 to the redirect URI with error and state in the given part. */
function expectSentToClient(
  response: HttpResponse,
  error: string,
  part: 'query' | 'fragment' = 'query',
  redirectUri = CALLBACK,
): URLSearchParams {
  expect(response.status, response.text).toBe(302);
  const location = response.headers.get('location')!;
  expect(
    location.startsWith(part === 'query' ? `${redirectUri}${redirectUri.includes('?') ? '&' : '?'}` : `${redirectUri}#`),
    location,
  ).toBe(true);
  const params = part === 'query' ? new URL(location).searchParams : new URLSearchParams(new URL(location).hash.slice(1));
  expect(params.get('error')).toBe(error);
  expect(params.get('error_description')).not.toBeNull();
  return params;
}

describe('errors that are never sent to a redirect URI', () => {
  it('S03: an unknown client_id gets 401 invalid_client, as JSON or as a page, and no redirect', async () => {
    expectShown(await authorize({ client_id: 'no-such-client' }), 401, 'invalid_client');
    const page = await authorize({ client_id: 'no-such-client' }, HTML);
    expect(page.status).toBe(401);
    expect(page.headers.get('location')).toBeNull();
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('invalid_client');
  });

  it('S03: a missing client_id gets 400 invalid_request and no redirect', async () => {
    expectShown(await authorize({ client_id: undefined }), 400, 'invalid_request');
  });

  it.each([
    ['a trailing slash', `${CALLBACK}/`],
    ['an extra query', `${CALLBACK}?x`],
    ['a changed path case', 'https://client.example/CB'],
    ['another port', 'https://client.example:8443/cb'],
    ['credentials before another host', 'https://client.example@evil.example/cb'],
    ['the host under another domain', 'https://client.example.evil.example/cb'],
    ['a fragment', `${CALLBACK}#x`],
  ])('S01: a redirect_uri with %s is refused without a redirect, and no login starts', async (_name, redirectUri) => {
    const json = await authorize({ redirect_uri: redirectUri });
    expectShown(json, 400, 'invalid_request');
    const page = await authorize({ redirect_uri: redirectUri }, HTML);
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(page.text).not.toContain(redirectUri);
    // No login request (its CSRF cookie would come with it), so nothing can be minted for that URI.
    for (const response of [json, page]) expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('S01: no authorization request starts for an unregistered redirect_uri', async () => {
    const browser = new OAuthBrowser(app);
    const response = await browser.get(
      `/oauth2/auth?${new URLSearchParams(query({ redirect_uri: 'https://evil.example/cb' })).toString()}`,
    );
    expect(response.status).toBe(400);
    expect(browser.jar.names()).toEqual([]);
  });

  it('S02: a loopback redirect URI may change its port, not its host', async () => {
    const accepted = await authorize({ redirect_uri: 'http://127.0.0.1:53123/cb' });
    expect(accepted.status, accepted.text).toBe(302);
    expect(queryParam(accepted.headers.get('location')!, 'login_challenge')).not.toBeNull();
    expectShown(await authorize({ redirect_uri: 'http://localhost:53123/cb' }), 400, 'invalid_request');
  });

  it('refuses redirect_uri or client_id given twice without a redirect', async () => {
    const base = new URLSearchParams(query()).toString();
    expectShown(
      await app.public.get(`/oauth2/auth?${base}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`, { headers: JSON_ACCEPT }),
      400,
      'invalid_request',
    );
    expectShown(await app.public.get(`/oauth2/auth?${base}&client_id=other`, { headers: JSON_ACCEPT }), 400, 'invalid_request');
  });

  it('S11: error pages cannot be framed, cached or sniffed, and run no script', async () => {
    const page = await authorize({ redirect_uri: 'https://evil.example/cb' }, HTML);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('content-security-policy')).toContain("script-src 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('errors sent to the client', () => {
  it('S05: a state shorter than 8 characters gets invalid_state, with the state echoed', async () => {
    const params = expectSentToClient(await authorize({ state: '1234567' }), 'invalid_state');
    expect(params.get('state')).toBe('1234567');
    expectSentToClient(await authorize({ state: undefined }), 'invalid_state');
  });

  it.each(['id_token', 'id_token token', 'code id_token', 'code token', 'code id_token token'])(
    'S05: %s without a nonce gets invalid_request in the fragment',
    async (responseType) => {
      const params = expectSentToClient(await authorize({ response_type: responseType }), 'invalid_request', 'fragment');
      expect(params.get('state')).toBe('state-0123456789');
    },
  );

  it('refuses a nonce shorter than 8 characters', async () => {
    expectSentToClient(await authorize({ nonce: 'short' }), 'insufficient_entropy');
  });

  const challenge = pkcePair().challenge;
  it.each([
    ['code_challenge_method=plain', { code_challenge: challenge, code_challenge_method: 'plain' }],
    ['a code_challenge without a method', { code_challenge: challenge }],
    ['a 42-character challenge', { code_challenge: challenge.slice(0, 42), code_challenge_method: 'S256' }],
    ['a 129-character challenge', { code_challenge: 'a'.repeat(129), code_challenge_method: 'S256' }],
    ['a challenge with "+"', { code_challenge: `${challenge.slice(0, 42)}+`, code_challenge_method: 'S256' }],
    ['a challenge with "/"', { code_challenge: `${challenge.slice(0, 42)}/`, code_challenge_method: 'S256' }],
  ])('S06: %s gets invalid_request', async (_name, pkce) => {
    expectSentToClient(await authorize(pkce), 'invalid_request');
  });

  it('S07: a public client asking for a code without PKCE gets invalid_request', async () => {
    const response = await app.public.get(`/oauth2/auth?${new URLSearchParams(query({}, publicClient)).toString()}`, {
      headers: JSON_ACCEPT,
    });
    expectSentToClient(response, 'invalid_request');
    const withPkce = await app.public.get(
      `/oauth2/auth?${new URLSearchParams(query({ code_challenge: challenge, code_challenge_method: 'S256' }, publicClient)).toString()}`,
    );
    expect(withPkce.status).toBe(302);
    expect(queryParam(withPkce.headers.get('location')!, 'login_challenge')).not.toBeNull();
  });

  it.each([
    ['a response_type the client did not register', 'unsupported_response_type', { client: 'public', response_type: 'token' }, 'fragment'],
    ['an unknown response_type', 'unsupported_response_type', { response_type: 'device' }, 'query'],
    ['no response_type', 'unsupported_response_type', { response_type: undefined }, 'query'],
    ['a scope the client may not request', 'invalid_scope', { scope: 'openid admin' }, 'query'],
    ['an audience the client may not request', 'invalid_request', { audience: 'https://evil.example/v1' }, 'query'],
    ['a registration', 'registration_not_supported', { registration: '{}' }, 'query'],
    ['prompt=none with login', 'invalid_request', { prompt: 'none login' }, 'query'],
    ['an unknown prompt', 'invalid_request', { prompt: 'always' }, 'query'],
    ['a max_age that is not a number', 'invalid_request', { max_age: 'soon' }, 'query'],
    ['an unknown response_mode', 'invalid_request', { response_mode: 'web_message' }, 'query'],
    ['tokens in the query', 'invalid_request', { response_type: 'token', response_mode: 'query' }, 'query'],
    ['an id_token_hint that is not ours', 'invalid_request', { id_token_hint: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln' }, 'query'],
    ['a parameter given twice', 'invalid_request', { twice: 'scope' }, 'query'],
  ])('%s gets %s', async (_name, error, overrides, part) => {
    const { client: which, twice, ...rest } = overrides as Record<string, string | undefined>;
    const base = which === 'public' ? publicClient : client;
    let path = `/oauth2/auth?${new URLSearchParams(query(rest, base)).toString()}`;
    if (twice !== undefined) path += `&${twice}=profile`;
    const response = await app.public.get(path);
    const params = expectSentToClient(response, error, part as 'query' | 'fragment');
    expect(params.get('state')).toBe('state-0123456789');
    expect(params.has('code')).toBe(false);
    // Refused before any login request: no flow starts.
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('S08: an unsigned request object from a client that did not register alg none is shown as invalid_request_object', async () => {
    expectShown(await authorize({ request: 'eyJhbGciOiJub25lIn0.e30.' }), 400, 'invalid_request_object');
  });

  it('S09: a request_uri the client did not register is refused without being fetched', async () => {
    let hits = 0;
    const server = createServer((_request, response) => {
      hits += 1;
      response.writeHead(200, { 'content-type': 'application/oauth-authz-req+jwt' }).end('eyJhbGciOiJub25lIn0.e30.');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/request.jwt`;
      expectShown(await authorize({ request_uri: uri }), 400, 'invalid_request_uri');
      expect(hits).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('keeps the query of the redirect URI when adding the error', async () => {
    const redirectUri = 'https://client.example/cb?tenant=7';
    const params = expectSentToClient(
      await authorize({ redirect_uri: redirectUri, state: 'short' }),
      'invalid_state',
      'query',
      redirectUri,
    );
    expect(params.get('tenant')).toBe('7');
  });

  it('posts an error with a form for response_mode=form_post', async () => {
    const response = await authorize({ response_mode: 'form_post', scope: 'admin' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.text).toContain(`action="${CALLBACK}"`);
    expect(response.text).toContain('name="error" value="invalid_scope"');
    expect(response.text).toContain('name="state" value="state-0123456789"');
  });
});

describe('the endpoint itself', () => {
  it('S10: answers no CORS preflight and sends no CORS headers', async () => {
    const origin = { origin: 'https://evil.example' };
    const preflight = await app.public.request('OPTIONS', '/oauth2/auth', {
      headers: { ...origin, 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const get = await authorize({}, origin);
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
    expect(get.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('hands the browser to the login app with an HttpOnly CSRF cookie and a request_url the app returns to', async () => {
    const browser = new OAuthBrowser(app);
    const response = await browser.get(`/oauth2/auth?${new URLSearchParams(query({ extra: 'foo bar' })).toString()}`);
    const location = browser.redirectOf(response);
    expect(location.startsWith(`${app.running.config.oauth2.urls.login}?login_challenge=`)).toBe(true);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const csrf = browser.jar.get('oauth2_authentication_csrf');
    expect(csrf?.attributes).toMatchObject({ httponly: true, path: '/', samesite: 'Lax' });
    expect(csrf?.attributes['secure']).toBeUndefined();
    const loginRequest = await app.admin.get<{ request_url: string; client: { client_id: string } }>(
      `/oauth2/auth/requests/login?login_challenge=${encodeURIComponent(queryParam(location, 'login_challenge')!)}`,
    );
    expect(loginRequest.status).toBe(200);
    expect(loginRequest.body.request_url).toBe(
      `${app.running.config.urls.issuer}/oauth2/auth?${new URLSearchParams(query({ extra: 'foo bar' })).toString()}`,
    );
  });

  it('takes the parameters from a POSTed form too (OIDC Core §3.1.2.1), folding them into request_url', async () => {
    const browser = new OAuthBrowser(app);
    const response = await browser.post('/oauth2/auth', query());
    const location = browser.redirectOf(response);
    const loginRequest = await app.admin.get<{ request_url: string }>(
      `/oauth2/auth/requests/login?login_challenge=${encodeURIComponent(queryParam(location, 'login_challenge')!)}`,
    );
    const requestUrl = new URL(loginRequest.body.request_url);
    expect(requestUrl.searchParams.get('client_id')).toBe(client.client_id);
    expect(requestUrl.searchParams.get('state')).toBe('state-0123456789');
  });

  it('S12: a POST is answered with 302, never 307', async () => {
    const response = await app.public.post('/oauth2/auth', { form: query({ state: 'short' }) });
    expect(response.status).toBe(302);
  });

  it('refuses a POST body that is not a form', async () => {
    const response = await app.public.post('/oauth2/auth', { json: query() });
    expectShown(response, 415, 'unsupported_media_type');
  });
});

describe('each response type and mode', () => {
  const nonce = 'nonce-0123456789';
  const expectations: ReadonlyArray<readonly [string, 'query' | 'fragment', readonly string[]]> = [
    ['code', 'query', ['code']],
    ['token', 'fragment', ['access_token', 'token_type', 'expires_in']],
    ['id_token', 'fragment', ['id_token']],
    ['id_token token', 'fragment', ['access_token', 'id_token']],
    ['code id_token', 'fragment', ['code', 'id_token']],
    ['code token', 'fragment', ['code', 'access_token']],
    ['code id_token token', 'fragment', ['code', 'id_token', 'access_token']],
  ];

  it.each(expectations)('%s is delivered in the %s by default', async (responseType, part, members) => {
    const browser = new OAuthBrowser(app);
    const location = await browser.completeFlow(query({ response_type: responseType, nonce }));
    expect(location.startsWith(part === 'query' ? `${CALLBACK}?` : `${CALLBACK}#`), location).toBe(true);
    const params = responseParams(location);
    expect(params.get('state')).toBe('state-0123456789');
    for (const member of members) expect(params.get(member), member).toBeTruthy();
    const absent = ['code', 'access_token', 'id_token'].filter((member) => !members.includes(member));
    for (const member of absent) expect(params.has(member), member).toBe(false);
  });

  it('delivers a code in the fragment when asked', async () => {
    const location = await new OAuthBrowser(app).completeFlow(query({ response_mode: 'fragment' }));
    expect(location.startsWith(`${CALLBACK}#`)).toBe(true);
    expect(responseParams(location).get('code')).toBeTruthy();
  });

  it.each(['code', 'code id_token token'])('posts %s with an auto-submitting form for form_post', async (responseType) => {
    const browser = new OAuthBrowser(app);
    const loginLocation = await browser.authorize(query({ response_type: responseType, response_mode: 'form_post', nonce }));
    const consentLocation = await browser.follow(await browser.acceptLogin(loginLocation));
    const page = await browser.get(await browser.acceptConsent(consentLocation, { grant_scope: ['openid'] }));
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
    // the page that carries the code cannot be framed.
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.text).toContain(`<form method="post" action="${CALLBACK}">`);
    expect(page.text).toMatch(/name="code" value="[^"]+"/);
    expect(page.text).toContain('name="state" value="state-0123456789"');
    expect(page.text).toContain('<noscript>');
  });
});

describe('fallback pages', () => {
  it.each(['/oauth2/fallbacks/login', '/oauth2/fallbacks/consent', '/oauth2/fallbacks/logout', '/oauth2/fallbacks/logout/callback'])(
    '%s is a short HTML page',
    async (path) => {
      const response = await app.public.get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    },
  );

  it('the error page shows the error from the query, escaped', async () => {
    const response = await app.public.get(
      `/oauth2/fallbacks/error?${new URLSearchParams({ error: '<script>alert(1)</script>', error_description: 'd"e', error_hint: "h'i" }).toString()}`,
    );
    expect(response.status).toBe(200);
    expect(response.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(response.text).not.toContain('<script>alert(1)');
    expect(response.text).toContain('d&quot;e');
    expect(response.text).toContain('h&#39;i');
  });

  it('the fallbacks answer on the public listener only', async () => {
    expect((await app.admin.get('/oauth2/fallbacks/error')).status).toBe(404);
  });
});

describe("with URLS_ERROR set to the deployer's own page", () => {
  let custom: TestApp;

  beforeAll(async () => {
    custom = await bootApp({ URLS_ERROR: 'https://errors.example/oauth' });
  });

  afterAll(async () => {
    await custom?.close();
  });

  it('browsers are sent there with the error; API clients still get JSON', async () => {
    const path = `/oauth2/auth?${new URLSearchParams(query({ client_id: 'no-such-client' })).toString()}`;
    const page = await custom.public.get(path, { headers: HTML });
    expect(page.status).toBe(302);
    const location = new URL(page.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe('https://errors.example/oauth');
    expect(location.searchParams.get('error')).toBe('invalid_client');
    expectShown(await custom.public.get(path, { headers: JSON_ACCEPT }), 401, 'invalid_client');
  });
});
