import { hash as bcryptHash } from '@node-rs/bcrypt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import {
  apiLogin,
  Browser,
  createPasswordIdentity,
  GOOD_PASSWORD,
  messageIds,
  node,
  nodeValue,
  type FlowShape,
  type SessionShape,
} from '../support/self-service.js';
import { expireFlow } from '../support/time-travel.js';

let app: TestApp;

beforeAll(async () => {
  app = await bootApp({ SELFSERVICE_ALLOWED_RETURN_URLS: 'https://app.example.com/welcome' });
});

afterAll(async () => {
  await app?.close();
});

describe('login flow (API)', () => {
  it('initializes a flow with the reference nodes: csrf_token, password_identifier, password, method', async () => {
    const init = await app.public.get<FlowShape & { forced: boolean; created_at: string; updated_at: string }>('/self-service/login/api');
    expect(init.status).toBe(200);
    const flow = init.body;
    expect(flow).toMatchObject({ type: 'api', forced: false, ui: { method: 'POST' } });
    expect(flow.ui.action).toBe(`${app.running.config.urls.issuer}/self-service/login?flow=${flow.id}`);
    expect(flow.request_url).toBe(`${app.running.config.urls.issuer}/self-service/login/api`);
    expect(flow.ui.messages).toBeUndefined();
    // The seed's loginFlow, `active` omitted until a method was used; nothing internal (CSRF hash, return_to).
    expect(Object.keys(flow).sort()).toEqual([
      'created_at',
      'expires_at',
      'forced',
      'id',
      'issued_at',
      'request_url',
      'type',
      'ui',
      'updated_at',
    ]);
    expect(Date.parse(flow.expires_at) - Date.parse(flow.issued_at)).toBe(3600 * 1000);
    expect(flow.ui.nodes).toEqual([
      {
        type: 'input',
        group: 'default',
        attributes: { name: 'csrf_token', type: 'hidden', value: '', required: true, disabled: false },
        messages: null,
        meta: {},
      },
      {
        type: 'input',
        group: 'password',
        attributes: { name: 'password_identifier', type: 'text', value: '', required: true, disabled: false },
        messages: null,
        meta: { label: { id: 1070004, text: 'ID', type: 'info' } },
      },
      {
        type: 'input',
        group: 'password',
        attributes: { name: 'password', type: 'password', required: true, disabled: false },
        messages: null,
        meta: { label: { id: 1070001, text: 'Password', type: 'info' } },
      },
      {
        type: 'input',
        group: 'password',
        attributes: { name: 'method', type: 'submit', value: 'password', disabled: false },
        messages: null,
        meta: { label: { id: 1010001, text: 'Sign in', type: 'info', context: {} } },
      },
    ]);
    const fetched = await app.public.get<FlowShape>(`/self-service/login/flows?id=${flow.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.id).toBe(flow.id);
  });

  it('logs in: 200 {session, session_token}; the identifier is case-insensitive; whoami accepts the token', async () => {
    const identityId = await createPasswordIdentity(app, 'ann@example.com');
    const login = await apiLogin(app, 'Ann@Example.COM', GOOD_PASSWORD);
    expect(login.status).toBe(200);
    expect(login.body.session_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(login.body.session).toMatchObject({ active: true, identity: { id: identityId, traits: { email: 'ann@example.com' } } });
    expect(login.headers.get('set-cookie')).toBeNull();
    const whoami = await app.public.get<SessionShape>('/sessions/whoami', {
      headers: { authorization: `Bearer ${login.body.session_token}` },
    });
    expect(whoami.status).toBe(200);
    expect(whoami.body.id).toBe(login.body.session.id);
    // The login reads the identity with its flow (one statement, as JSON); whoami reads it on its own.
    expect(login.body.session.identity).toEqual(whoami.body.identity);
    expect(login.body.session.identity).toMatchObject({
      verifiable_addresses: [{ value: 'ann@example.com', verified: false }],
      recovery_addresses: [{ value: 'ann@example.com' }],
    });
    const rows = await queryDatabase(app.databaseUrl, `SELECT token_hash FROM self_service_sessions WHERE id = $1`, [
      login.body.session.id,
    ]);
    expect(rows[0]!['token_hash']).not.toBe(login.body.session_token);
    expect(JSON.stringify(rows)).not.toContain(login.body.session_token);
  });

  it('wrong password: 400 with the flow, message 4000006, identifier re-filled, password not', async () => {
    await createPasswordIdentity(app, 'bob@example.com');
    const login = await apiLogin(app, 'bob@example.com', 'not the password');
    expect(login.status).toBe(400);
    const flow = login.body as unknown as FlowShape;
    expect(flow.ui.messages?.map((message) => message.id)).toEqual([4000006]);
    expect(flow.ui.messages?.[0]).toMatchObject({ type: 'error', context: {} });
    expect(flow.active).toBe('password');
    expect(Object.keys(flow).sort()).toEqual([
      'active',
      'created_at',
      'expires_at',
      'forced',
      'id',
      'issued_at',
      'request_url',
      'type',
      'ui',
      'updated_at',
    ]);
    expect(nodeValue(flow, 'password_identifier')).toBe('bob@example.com');
    expect(node(flow, 'password')?.attributes).not.toHaveProperty('value');
  });

  it('missing fields: 4000002 on the node; unknown method: 4010002; no body: 400; another content type: 415', async () => {
    const init = await app.public.get<FlowShape>('/self-service/login/api');
    const missing = await app.public.post<FlowShape>(`/self-service/login?flow=${init.body.id}`, {
      json: { method: 'password', password_identifier: 'x' },
    });
    expect(missing.status).toBe(400);
    expect(node(missing.body, 'password')?.messages?.map((message) => message.id)).toEqual([4000002]);
    const method = await app.public.post<FlowShape>(`/self-service/login?flow=${init.body.id}`, {
      json: { method: 'oidc', password_identifier: 'x', password: 'y' },
    });
    expect(method.status).toBe(400);
    expect(messageIds(method.body)).toEqual([4010002]);
    const empty = await app.public.post<{ error: { id: string } }>(`/self-service/login?flow=${init.body.id}`);
    expect(empty.status).toBe(400);
    expect(empty.body.error.id).toBe('invalid_request');
    const csv = await app.public.post(`/self-service/login?flow=${init.body.id}`, {
      rawBody: 'x',
      headers: { 'content-type': 'text/csv' },
    });
    expect(csv.status).toBe(415);
  });

  it('flow ids: missing or malformed 400, unknown 404, a registration flow is not a login flow (404)', async () => {
    expect((await app.public.post<{ error: { id: string } }>('/self-service/login', { json: {} })).body.error.id).toBe('invalid_request');
    expect((await app.public.post('/self-service/login?flow=nope', { json: {} })).status).toBe(400);
    expect((await app.public.get('/self-service/login/flows?id=1b4e28ba-2fa1-41d2-883f-0016d3cca427')).status).toBe(404);
    const registration = await app.public.get<FlowShape>('/self-service/registration/api');
    expect((await app.public.get(`/self-service/login/flows?id=${registration.body.id}`)).status).toBe(404);
  });

  it('expired flow: fetch 410 with where to restart; submit 302 to a fresh flow carrying 4010001 (body = the fresh flow)', async () => {
    const init = await app.public.get<FlowShape>('/self-service/login/api');
    await expireFlow(app, init.body.id, '2 minutes');
    const fetched = await app.public.get<{ error: { id: string; code: number; details: Record<string, string> } }>(
      `/self-service/login/flows?id=${init.body.id}`,
    );
    expect(fetched.status).toBe(410);
    expect(fetched.body.error).toMatchObject({ id: 'self_service_flow_expired', code: 410 });
    expect(fetched.body.error.details['api']).toBe(`${app.running.config.urls.issuer}/self-service/login/api`);
    const submit = await app.public.post<FlowShape>(`/self-service/login?flow=${init.body.id}`, {
      json: { method: 'password', password_identifier: 'a', password: 'b' },
    });
    expect(submit.status).toBe(302);
    expect(submit.body.id).not.toBe(init.body.id);
    expect(submit.headers.get('location')).toBe(`${app.running.config.urls.issuer}/self-service/login/flows?id=${submit.body.id}`);
    expect(submit.body.ui.messages?.map((message) => message.id)).toEqual([4010001]);
    const fresh = await app.public.get<FlowShape>(`/self-service/login/flows?id=${submit.body.id}`);
    expect(fresh.status).toBe(200);
  });

  it('S51: an API flow submitted with a Cookie or an Origin header is refused with 400', async () => {
    await createPasswordIdentity(app, 's51@example.com');
    for (const header of [{ cookie: 'a=b' }, { origin: 'https://evil.example' }] as Record<string, string>[]) {
      const init = await app.public.get<FlowShape>('/self-service/login/api');
      const submit = await app.public.post<{ error: { id: string } }>(`/self-service/login?flow=${init.body.id}`, {
        json: { method: 'password', password_identifier: 's51@example.com', password: GOOD_PASSWORD },
        headers: header,
      });
      expect(submit.status).toBe(400);
      expect(submit.body.error.id).toBe('browser_request_on_api_flow');
    }
  });

  it('S51: GET /self-service/login/api with a valid session is 400 unless refresh=true', async () => {
    await createPasswordIdentity(app, 'again@example.com');
    const { body } = await apiLogin(app, 'again@example.com', GOOD_PASSWORD);
    const again = await app.public.get<{ error: { id: string } }>('/self-service/login/api', {
      headers: { 'x-session-token': body.session_token },
    });
    expect(again.status).toBe(400);
    expect(again.body.error.id).toBe('session_already_available');
    const refresh = await app.public.get<FlowShape & { forced: boolean }>('/self-service/login/api?refresh=true', {
      headers: { 'x-session-token': body.session_token },
    });
    expect(refresh.status).toBe(200);
    expect(refresh.body.forced).toBe(true);
  });

  it('S51: submitting an API flow (not refresh) with a valid session is 400 session_already_available', async () => {
    await createPasswordIdentity(app, 'twice@example.com');
    const { body } = await apiLogin(app, 'twice@example.com', GOOD_PASSWORD);
    const init = await app.public.get<FlowShape>('/self-service/login/api');
    const submit = await app.public.post<{ error: { id: string } }>(`/self-service/login?flow=${init.body.id}`, {
      json: { method: 'password', password_identifier: 'twice@example.com', password: GOOD_PASSWORD },
      headers: { 'x-session-token': body.session_token },
    });
    expect(submit.status).toBe(400);
    expect(submit.body.error.id).toBe('session_already_available');
  });

  it('refresh=true resets authenticated_at of the presented session and keeps its token', async () => {
    await createPasswordIdentity(app, 'refresh@example.com');
    const first = await apiLogin(app, 'refresh@example.com', GOOD_PASSWORD);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const headers = { 'x-session-token': first.body.session_token };
    const flow = await app.public.get<FlowShape>('/self-service/login/api?refresh=true', { headers });
    const again = await app.public.post<{ session: SessionShape; session_token: string }>(`/self-service/login?flow=${flow.body.id}`, {
      json: { method: 'password', password_identifier: 'refresh@example.com', password: GOOD_PASSWORD },
      headers,
    });
    expect(again.status).toBe(200);
    expect(again.body.session.id).toBe(first.body.session.id);
    expect(again.body.session_token).toBe(first.body.session_token);
    expect(Date.parse(again.body.session.authenticated_at)).toBeGreaterThan(Date.parse(first.body.session.authenticated_at));
    const whoami = await app.public.get<SessionShape>('/sessions/whoami', { headers });
    expect(whoami.body.authenticated_at).toBe(again.body.session.authenticated_at);
  });

  it('concurrent logins: each flow and session is stored as answered and works', async () => {
    const emails = Array.from({ length: 12 }, (_, index) => `group-${index}@example.com`);
    // One at a time: concurrent POST /admin/identities are refused by an inflight rule (docs/rate-limits.md).
    const identityIds: string[] = [];
    for (const email of emails) identityIds.push(await createPasswordIdentity(app, email));
    const inits = await Promise.all(
      emails.map(() => app.public.get<FlowShape & { issued_at: string; expires_at: string }>('/self-service/login/api')),
    );
    expect(inits.map((init) => init.status)).toEqual(emails.map(() => 200));
    const flowIds = inits.map((init) => init.body.id);
    expect(new Set(flowIds).size).toBe(emails.length);
    const stored = await queryDatabase(app.databaseUrl, `SELECT id, issued_at, expires_at, ui FROM self_service_flows WHERE id = ANY($1)`, [
      flowIds,
    ]);
    expect(stored).toHaveLength(emails.length);
    for (const init of inits) {
      const row = stored.find((candidate) => candidate['id'] === init.body.id)!;
      expect((row['issued_at'] as Date).toISOString()).toBe(init.body.issued_at);
      expect((row['expires_at'] as Date).toISOString()).toBe(init.body.expires_at);
      expect(row['ui']).toEqual(init.body.ui);
    }

    const logins = await Promise.all(
      inits.map((init, index) =>
        app.public.post<{ session: SessionShape; session_token: string }>(`/self-service/login?flow=${init.body.id}`, {
          json: { method: 'password', password_identifier: emails[index], password: GOOD_PASSWORD },
        }),
      ),
    );
    expect(logins.map((login) => login.status)).toEqual(emails.map(() => 200));
    for (const [index, login] of logins.entries()) {
      expect(login.body.session.identity.id).toBe(identityIds[index]);
      const whoami = await app.public.get<SessionShape>('/sessions/whoami', { headers: { 'x-session-token': login.body.session_token } });
      expect(whoami.status).toBe(200);
      expect(whoami.body.id).toBe(login.body.session.id);
      expect(whoami.body.authenticated_at).toBe(login.body.session.authenticated_at);
    }
  });

  it('S52: unknown identifier and wrong password get the same status and message, in comparable time', async () => {
    await createPasswordIdentity(app, 'timing@example.com');
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, fewer than the 10 failures that lock an identifier.
    for (let round = 0; round < 8; round += 1) {
      for (const [identifier, times] of [
        ['timing@example.com', known],
        [`nobody-${round}@example.com`, unknown],
      ] as const) {
        const init = await app.public.get<FlowShape>('/self-service/login/api');
        const started = performance.now();
        const submit = await app.public.post<FlowShape>(`/self-service/login?flow=${init.body.id}`, {
          json: { method: 'password', password_identifier: identifier, password: 'wrong password here' },
        });
        times.push(performance.now() - started);
        expect(submit.status).toBe(400);
        expect(submit.body.ui.messages).toEqual([expect.objectContaining({ id: 4000006, type: 'error' })]);
      }
    }
    // A busy machine only ever adds time, so each path's fastest answer is its own cost (both pay one
    // argon2id check: fastest answers measured 0.75 to 1.33 times each other on a loaded machine).
    // Without the dummy check an unknown identifier answered 3.6 times faster there. No speed is
    // asserted, only the ratio of the two paths.
    const fastest = (values: number[]): number => Math.min(...values);
    expect(fastest(unknown)).toBeGreaterThan(fastest(known) / 2);
    expect(fastest(known)).toBeGreaterThan(fastest(unknown) / 2);
  });

  it('S49: an oversized, CRLF or control-character identifier is an ordinary failed login (400, 4000006), never a 500', async () => {
    for (const identifier of [`${'a'.repeat(10_000)}@example.com`, 'a@b.c\r\nBcc: x@evil.example', '\u202Eevil@example.com']) {
      const login = await apiLogin(app, identifier, GOOD_PASSWORD);
      expect(login.status).toBe(400);
      expect(messageIds(login.body as unknown as FlowShape)).toEqual([4000006]);
    }
  });

  it('verifies an imported bcrypt hash and re-hashes it to argon2id on success', async () => {
    const hashed = await bcryptHash('imported password 123', 4);
    const created = await app.admin.post<{ id: string }>('/identities', {
      json: { traits: { email: 'legacy@example.com' }, credentials: { password: { config: { hashed_password: hashed } } } },
    });
    expect(created.status).toBe(201);
    expect((await apiLogin(app, 'legacy@example.com', 'wrong')).status).toBe(400);
    expect((await apiLogin(app, 'legacy@example.com', 'imported password 123')).status).toBe(200);
    const [row] = await queryDatabase(
      app.databaseUrl,
      `SELECT config ->> 'hashed_password' AS hash FROM identity_credentials WHERE identity_id = $1`,
      [created.body.id],
    );
    expect(row!['hash']).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await apiLogin(app, 'legacy@example.com', 'imported password 123')).status).toBe(200);
  });

  it('an identity without a password cannot log in (same answer as a wrong password)', async () => {
    expect((await app.admin.post('/identities', { json: { traits: { email: 'nopass@example.com' } } })).status).toBe(201);
    const login = await apiLogin(app, 'nopass@example.com', 'anything at all');
    expect(login.status).toBe(400);
    expect(messageIds(login.body as unknown as FlowShape)).toEqual([4000006]);
  });
});

describe('login flow (browser)', () => {
  it('302 to the login UI with ?flow=, sets the CSRF cookie, and the form token is in the flow', async () => {
    const browser = new Browser(app);
    const init = await browser.get('/self-service/login/browser');
    expect(init.status).toBe(302);
    const location = new URL(init.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(app.running.config.selfService.urls.login);
    const csrf = browser.jar.get('service_csrf_token');
    expect(csrf?.attributes).toMatchObject({ httponly: true, path: '/', samesite: 'Lax' });
    const flow = await browser.get<FlowShape>(`/self-service/login/flows?id=${location.searchParams.get('flow')}`);
    expect(flow.body.type).toBe('browser');
    expect(nodeValue(flow.body, 'csrf_token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(nodeValue(flow.body, 'csrf_token')).not.toBe(csrf?.value);
  });

  it('S56: logs in with a form post: session cookie (HttpOnly, SameSite=Lax, path /), 302 to the default return URL, new session id per login', async () => {
    await createPasswordIdentity(app, 'carol@example.com');
    const browser = new Browser(app);
    const login = await browser.login('carol@example.com', GOOD_PASSWORD);
    expect(login.status).toBe(302);
    expect(login.headers.get('location')).toBe(app.running.config.selfService.defaultBrowserReturnUrl);
    const cookie = browser.jar.get('service_session');
    expect(cookie?.attributes).toMatchObject({ httponly: true, samesite: 'Lax', path: '/', 'max-age': String(24 * 3600) });
    expect(cookie?.attributes['secure']).toBeUndefined();
    const whoami = await browser.get<SessionShape>('/sessions/whoami');
    expect(whoami.status).toBe(200);

    const other = new Browser(app);
    await other.login('carol@example.com', GOOD_PASSWORD);
    expect(other.jar.get('service_session')?.value).not.toBe(cookie?.value);
    expect((await other.get<SessionShape>('/sessions/whoami')).body.id).not.toBe(whoami.body.id);
  });

  it('S56: the session cookie is Secure when COOKIE_SECURE is on; session and flow lifespans are configurable', async () => {
    const secureApp = await bootApp({ COOKIE_SECURE: 'true', SESSION_LIFESPAN: '2h', SELFSERVICE_FLOW_LIFESPAN: '10m' });
    try {
      await createPasswordIdentity(secureApp, 'secure@example.com');
      const browser = new Browser(secureApp);
      const flow = await browser.startFlow('login');
      expect(Date.parse(flow.expires_at) - Date.parse(flow.issued_at)).toBe(10 * 60 * 1000);
      const login = await browser.postForm(`/self-service/login?flow=${flow.id}`, {
        csrf_token: String(nodeValue(flow, 'csrf_token')),
        method: 'password',
        password_identifier: 'secure@example.com',
        password: GOOD_PASSWORD,
      });
      expect(login.status).toBe(302);
      expect(browser.jar.get('service_session')?.attributes).toMatchObject({ secure: true, 'max-age': String(2 * 3600) });
      expect(browser.jar.get('service_csrf_token')?.attributes['secure']).toBe(true);
      const session = await secureApp.public.get<SessionShape>('/sessions/whoami', {
        headers: { cookie: `service_session=${browser.jar.get('service_session')!.value}` },
      });
      expect(Date.parse(session.body.expires_at) - Date.parse(session.body.authenticated_at)).toBe(2 * 3600 * 1000);
    } finally {
      await secureApp.close();
    }
  });

  it('Accept: application/json gets 200 with the session instead of the redirect', async () => {
    await createPasswordIdentity(app, 'spa@example.com');
    const browser = new Browser(app);
    const flow = await browser.startFlow('login');
    const login = await browser.postForm<SessionShape>(
      `/self-service/login?flow=${flow.id}`,
      {
        csrf_token: String(nodeValue(flow, 'csrf_token')),
        method: 'password',
        password_identifier: 'spa@example.com',
        password: GOOD_PASSWORD,
      },
      { accept: 'application/json' },
    );
    expect(login.status).toBe(200);
    expect(login.body.identity.traits['email']).toBe('spa@example.com');
    expect(browser.jar.get('service_session')).toBeDefined();
  });

  it('wrong password: 302 back to the login UI with the same flow, which now carries 4000006', async () => {
    await createPasswordIdentity(app, 'dave@example.com');
    const browser = new Browser(app);
    const flow = await browser.startFlow('login');
    const login = await browser.postForm(`/self-service/login?flow=${flow.id}`, {
      csrf_token: String(nodeValue(flow, 'csrf_token')),
      method: 'password',
      password_identifier: 'dave@example.com',
      password: 'wrong',
    });
    expect(login.status).toBe(302);
    expect(new URL(login.headers.get('location')!).searchParams.get('flow')).toBe(flow.id);
    const after = await browser.get<FlowShape>(`/self-service/login/flows?id=${flow.id}`);
    expect(messageIds(after.body)).toEqual([4000006]);
    expect(browser.jar.get('service_session')).toBeUndefined();
  });

  it('S50: a missing, wrong or foreign csrf_token is 403 security_csrf_violation; no session is issued', async () => {
    await createPasswordIdentity(app, 's50@example.com');
    const browser = new Browser(app);
    const flow = await browser.startFlow('login');
    const form = { method: 'password', password_identifier: 's50@example.com', password: GOOD_PASSWORD };
    const missing = await browser.postForm<{ error: { id: string } }>(`/self-service/login?flow=${flow.id}`, form);
    expect(missing.status).toBe(403);
    expect(missing.body.error.id).toBe('security_csrf_violation');
    const wrong = await browser.postForm(`/self-service/login?flow=${flow.id}`, { ...form, csrf_token: 'A'.repeat(43) });
    expect(wrong.status).toBe(403);
    // A cross-site post: the right form token, but the browser sends no CSRF cookie (or another browser's).
    const attacker = new Browser(app);
    await attacker.startFlow('login');
    const crossSite = await attacker.postForm(`/self-service/login?flow=${flow.id}`, {
      ...form,
      csrf_token: String(nodeValue(flow, 'csrf_token')),
    });
    expect(crossSite.status).toBe(403);
    const noCookie = await app.public.post(`/self-service/login?flow=${flow.id}`, {
      form: { ...form, csrf_token: String(nodeValue(flow, 'csrf_token')) },
    });
    expect(noCookie.status).toBe(403);
    expect(browser.jar.get('service_session')).toBeUndefined();
    // The form token of another flow of the same browser is not this flow's token either.
    const ok = await browser.postForm(`/self-service/login?flow=${flow.id}`, {
      ...form,
      csrf_token: String(nodeValue(flow, 'csrf_token')),
    });
    expect(ok.status).toBe(302);
  });

  it('a navigating browser is sent to the error UI for a CSRF failure, and the container holds the error', async () => {
    const browser = new Browser(app);
    const flow = await browser.startFlow('login');
    const submit = await browser.postForm(
      `/self-service/login?flow=${flow.id}`,
      { method: 'password', password_identifier: 'x', password: 'y' },
      { accept: 'text/html' },
    );
    expect(submit.status).toBe(302);
    const location = new URL(submit.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(app.running.config.selfService.urls.error);
    const container = await app.public.get<{ errors: { id: string; code: number }[] }>(
      `/self-service/errors?error=${location.searchParams.get('error')}`,
    );
    expect(container.status).toBe(200);
    expect(container.body.errors).toEqual([expect.objectContaining({ id: 'security_csrf_violation', code: 403 })]);
  });

  it('expired browser flow: 302 to the login UI with a fresh flow carrying 4010001', async () => {
    const browser = new Browser(app);
    const flow = await browser.startFlow('login');
    await expireFlow(app, flow.id, '2 minutes');
    const submit = await browser.postForm(`/self-service/login?flow=${flow.id}`, {
      csrf_token: String(nodeValue(flow, 'csrf_token')),
      method: 'password',
      password_identifier: 'x',
      password: 'y',
    });
    expect(submit.status).toBe(302);
    const freshId = new URL(submit.headers.get('location')!).searchParams.get('flow');
    expect(freshId).not.toBe(flow.id);
    const fresh = await browser.get<FlowShape>(`/self-service/login/flows?id=${freshId}`);
    expect(messageIds(fresh.body)).toEqual([4010001]);
    expect(browser.jar.get('service_csrf_token')).toBeDefined();
    const gone = await browser.get<{ error: { id: string; details: Record<string, string> } }>(`/self-service/login/flows?id=${flow.id}`);
    expect(gone.status).toBe(410);
    expect(gone.body.error.id).toBe('self_service_flow_expired');
    expect(gone.body.error.details['redirect_to']).toBe(`${app.running.config.urls.issuer}/self-service/login/browser`);
  });

  it('return_to: allowed ones are where the browser lands; others are refused with 400', async () => {
    await createPasswordIdentity(app, 'erin@example.com');
    const browser = new Browser(app);
    const flow = await browser.startFlow('login', `?return_to=${encodeURIComponent('https://app.example.com/welcome/home')}`);
    const login = await browser.postForm(`/self-service/login?flow=${flow.id}`, {
      csrf_token: String(nodeValue(flow, 'csrf_token')),
      method: 'password',
      password_identifier: 'erin@example.com',
      password: GOOD_PASSWORD,
    });
    expect(login.headers.get('location')).toBe('https://app.example.com/welcome/home');
    // Already logged in: the browser init goes straight on.
    const again = await browser.get(`/self-service/login/browser?return_to=${encodeURIComponent('https://app.example.com/welcome')}`);
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe('https://app.example.com/welcome');
    for (const bad of [
      'https://evil.example/welcome',
      'https://app.example.com/welcomeevil',
      'https://app.example.com@evil.example/welcome',
      '//evil.example',
    ]) {
      const refused = await new Browser(app).get<{ error: { id: string } }>(
        `/self-service/login/browser?return_to=${encodeURIComponent(bad)}`,
      );
      expect(refused.status).toBe(400);
      expect(refused.body.error.id).toBe('self_service_flow_return_to_forbidden');
    }
  });

  it('a logged-in browser submitting a login flow is sent on to the return URL (no second session)', async () => {
    await createPasswordIdentity(app, 'frank@example.com');
    const browser = new Browser(app);
    const flow = await browser.startFlow('login');
    await browser.login('frank@example.com', GOOD_PASSWORD);
    const cookie = browser.jar.get('service_session')?.value;
    const second = await browser.postForm(`/self-service/login?flow=${flow.id}`, {
      csrf_token: String(nodeValue(flow, 'csrf_token')),
      method: 'password',
      password_identifier: 'frank@example.com',
      password: GOOD_PASSWORD,
    });
    expect(second.status).toBe(302);
    expect(browser.jar.get('service_session')?.value).toBe(cookie);
  });
});

describe('failed-login throttling', () => {
  let throttled: TestApp;

  beforeAll(async () => {
    throttled = await bootApp({
      SELFSERVICE_LOGIN_MAX_FAILURES_PER_IDENTIFIER: '3',
      SELFSERVICE_LOGIN_MAX_FAILURES_PER_IP: '8',
      SELFSERVICE_LOGIN_FAILURE_WINDOW: '1h',
    });
  });

  afterAll(async () => {
    await throttled?.close();
  });

  beforeEach(async () => {
    await queryDatabase(throttled.databaseUrl, `DELETE FROM self_service_login_failures`);
  });

  /** The window of every counter ends now (instead of waiting for it: no timing in tests). */
  async function endWindows(): Promise<void> {
    await queryDatabase(
      throttled.databaseUrl,
      `UPDATE self_service_login_failures SET window_started_at = window_started_at - interval '1 hour'`,
    );
  }

  it('after N failures for an identifier further attempts get 429 (even with the right password) until the window passes', async () => {
    await createPasswordIdentity(throttled, 'gina@example.com');
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await apiLogin(throttled, 'gina@example.com', 'wrong')).status).toBe(400);
    const refused = await apiLogin(throttled, 'GINA@example.com', GOOD_PASSWORD);
    expect(refused.status).toBe(429);
    expect((refused.body as unknown as { error: { id: string; code: number } }).error).toMatchObject({
      id: 'too_many_requests',
      code: 429,
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Refused attempts are not counted: the window still ends as it would have.
    expect((await apiLogin(throttled, 'gina@example.com', 'wrong')).status).toBe(429);
    await endWindows();
    expect((await apiLogin(throttled, 'gina@example.com', GOOD_PASSWORD)).status).toBe(200);
  });

  it('a success clears the identifier count; the per-address limit holds across identifiers', async () => {
    await createPasswordIdentity(throttled, 'hal@example.com');
    for (let attempt = 0; attempt < 2; attempt += 1) expect((await apiLogin(throttled, 'hal@example.com', 'wrong')).status).toBe(400);
    expect((await apiLogin(throttled, 'hal@example.com', GOOD_PASSWORD)).status).toBe(200);
    for (let attempt = 0; attempt < 2; attempt += 1) expect((await apiLogin(throttled, 'hal@example.com', 'wrong')).status).toBe(400);
    expect((await apiLogin(throttled, 'hal@example.com', GOOD_PASSWORD)).status).toBe(200);
    // 4 failures of hal so far in this window; 4 more from other identifiers reach the address limit of 8.
    for (let attempt = 0; attempt < 4; attempt += 1)
      expect((await apiLogin(throttled, `x${attempt}@example.com`, 'wrong')).status).toBe(400);
    expect((await apiLogin(throttled, 'hal@example.com', GOOD_PASSWORD)).status).toBe(429);
    await endWindows();
    expect((await apiLogin(throttled, 'hal@example.com', GOOD_PASSWORD)).status).toBe(200);
  });

  it('stores identifiers only as digests', async () => {
    expect((await apiLogin(throttled, 'private@example.com', 'wrong')).status).toBe(400);
    const keys = await queryDatabase<{ key: string }>(throttled.databaseUrl, `SELECT key FROM self_service_login_failures`);
    expect(keys.map((row) => row.key).sort()).toEqual([expect.stringMatching(/^identifier:[0-9a-f]{64}$/), 'ip:127.0.0.1']);
  });
});
