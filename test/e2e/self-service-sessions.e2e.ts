import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import { apiLogin, Browser, createPasswordIdentity, GOOD_PASSWORD, type SessionShape } from '../support/self-service.js';
import { expireSession } from '../support/time-travel.js';

let app: TestApp;
/** A second instance on the same database: caches must be invalidated across instances. */
let other: TestApp;

beforeAll(async () => {
  app = await bootApp({ SELFSERVICE_ALLOWED_RETURN_URLS: 'https://app.example.com/' });
  other = await bootApp({}, { databaseUrl: app.databaseUrl });
});

afterAll(async () => {
  await other?.close();
  await app?.close();
});

async function session(email: string): Promise<{ token: string; session: SessionShape; identityId: string }> {
  const identityId = await createPasswordIdentity(app, email);
  const login = await apiLogin(app, email, GOOD_PASSWORD);
  expect(login.status).toBe(200);
  return { token: login.body.session_token, session: login.body.session, identityId };
}

/** Polls until whoami on `target` answers `status` (cross-instance invalidation is asynchronous). */
async function eventually(target: TestApp, token: string, status: number): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const whoami = await target.public.get('/sessions/whoami', { headers: { 'x-session-token': token } });
    if (whoami.status === status || Date.now() > deadline) {
      expect(whoami.status).toBe(status);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('GET /sessions/whoami', () => {
  it('401 in the identity shape without a token, with an unknown one, and with a malformed header', async () => {
    for (const headers of [
      {},
      { 'x-session-token': 'nope' },
      { authorization: 'Bearer nope' },
      { authorization: 'Basic abc' },
      { cookie: 'service_session=nope' },
    ] as Record<string, string>[]) {
      const whoami = await app.public.get<{ error: { id: string; code: number; request: string } }>('/sessions/whoami', { headers });
      expect(whoami.status).toBe(401);
      expect(whoami.body.error).toMatchObject({ id: 'session_inactive', code: 401 });
      expect(whoami.body.error.request).toBe(whoami.headers.get('x-request-id'));
    }
  });

  it('answers the session with its identity for the token in X-Session-Token, Authorization: Bearer, or the cookie', async () => {
    const { token, session: issued, identityId } = await session('ivy@example.com');
    for (const headers of [
      { 'x-session-token': token },
      { authorization: `bearer ${token}` },
      { cookie: `service_session=${token}` },
    ] as Record<string, string>[]) {
      const whoami = await app.public.get<SessionShape>('/sessions/whoami', { headers });
      expect(whoami.status).toBe(200);
      expect(whoami.headers.get('x-kratos-authenticated-identity-id')).toBe(identityId);
      expect(whoami.body).toEqual({
        id: issued.id,
        active: true,
        expires_at: issued.expires_at,
        authenticated_at: issued.authenticated_at,
        issued_at: issued.issued_at,
        identity: expect.objectContaining({ id: identityId, schema_id: 'default', traits: { email: 'ivy@example.com' } }),
      });
      expect(Date.parse(whoami.body.expires_at) - Date.parse(whoami.body.authenticated_at)).toBe(24 * 3600 * 1000);
      expect(JSON.stringify(whoami.body)).not.toContain(token);
    }
    expect((await app.admin.get('/sessions/whoami', { headers: { 'x-session-token': token } })).status).toBe(404);
  });

  it('an expired session is 401', async () => {
    const { token, session: issued } = await session('exp@example.com');
    await expireSession(app, issued.id, '1 second');
    // The other instance never cached it; this one may have (login does not fill the cache).
    await eventually(other, token, 401);
  });

  it('isolation: a token reads only its own session, and the identity in it is its own', async () => {
    const first = await session('one@example.com');
    const second = await session('two@example.com');
    const a = await app.public.get<SessionShape>('/sessions/whoami', { headers: { 'x-session-token': first.token } });
    const b = await app.public.get<SessionShape>('/sessions/whoami', { headers: { 'x-session-token': second.token } });
    expect(a.body.identity.id).toBe(first.identityId);
    expect(b.body.identity.id).toBe(second.identityId);
    // Revoking one leaves the other alone.
    expect((await app.public.delete('/self-service/logout/api', { json: { session_token: first.token } })).status).toBe(204);
    expect((await app.public.get('/sessions/whoami', { headers: { 'x-session-token': second.token } })).status).toBe(200);
  });
});

describe('logout', () => {
  it('S56: API logout is 204 and the token is dead everywhere at once (cached on both instances before)', async () => {
    const { token } = await session('kai@example.com');
    for (const target of [app, other])
      expect((await target.public.get('/sessions/whoami', { headers: { 'x-session-token': token } })).status).toBe(200);
    const logout = await app.public.delete('/self-service/logout/api', { json: { session_token: token } });
    expect(logout.status).toBe(204);
    expect((await app.public.get('/sessions/whoami', { headers: { 'x-session-token': token } })).status).toBe(401);
    await eventually(other, token, 401);
    const again = await app.public.delete<{ error: { id: string } }>('/self-service/logout/api', { json: { session_token: token } });
    expect(again.status).toBe(403);
    expect(again.body.error.id).toBe('invalid_session_token');
  });

  it('API logout: unknown token 403, missing or malformed body 400; DELETE /sessions does the same', async () => {
    expect((await app.public.delete('/self-service/logout/api', { json: { session_token: 'unknown' } })).status).toBe(403);
    expect((await app.public.delete<{ error: { id: string } }>('/self-service/logout/api', { json: {} })).body.error.id).toBe(
      'invalid_request',
    );
    expect((await app.public.delete('/self-service/logout/api', { json: { session_token: 5 } })).status).toBe(400);
    expect((await app.public.delete('/self-service/logout/api', { json: { session_token: 'x', extra: 1 } })).status).toBe(400);
    const { token } = await session('leo@example.com');
    expect((await app.public.delete('/sessions', { json: { session_token: token } })).status).toBe(204);
    expect((await app.public.get('/sessions/whoami', { headers: { 'x-session-token': token } })).status).toBe(401);
  });

  it('browser logout revokes the session, clears the cookies, and redirects to an allowed return_to (else the default)', async () => {
    await createPasswordIdentity(app, 'mia@example.com');
    const browser = new Browser(app);
    await browser.login('mia@example.com', GOOD_PASSWORD);
    const token = browser.jar.get('service_session')!.value;
    expect((await browser.get('/sessions/whoami')).status).toBe(200);
    const logout = await browser.get(`/self-service/browser/flows/logout?return_to=${encodeURIComponent('https://app.example.com/bye')}`);
    expect(logout.status).toBe(302);
    expect(logout.headers.get('location')).toBe('https://app.example.com/bye');
    expect(browser.jar.get('service_session')).toBeUndefined();
    expect(browser.jar.get('service_csrf_token')).toBeUndefined();
    expect((await app.public.get('/sessions/whoami', { headers: { cookie: `service_session=${token}` } })).status).toBe(401);

    await browser.login('mia@example.com', GOOD_PASSWORD);
    const evil = await browser.get(`/self-service/browser/flows/logout?return_to=${encodeURIComponent('https://evil.example/')}`);
    expect(evil.status).toBe(302);
    expect(evil.headers.get('location')).toBe(app.running.config.selfService.defaultBrowserReturnUrl);
    // Without any session the browser is simply sent on.
    expect((await new Browser(app).get('/self-service/browser/flows/logout')).status).toBe(302);
  });
});

describe('identity deletion', () => {
  it('revokes its sessions: whoami is 401 at once on both instances, also after being cached', async () => {
    const { token, identityId, session: issued } = await session('ned@example.com');
    for (const target of [app, other])
      expect((await target.public.get('/sessions/whoami', { headers: { 'x-session-token': token } })).status).toBe(200);
    expect((await app.admin.delete(`/identities/${identityId}`)).status).toBe(204);
    expect((await app.public.get('/sessions/whoami', { headers: { 'x-session-token': token } })).status).toBe(401);
    await eventually(other, token, 401);
    expect(await queryDatabase(app.databaseUrl, `SELECT 1 FROM self_service_sessions WHERE id = $1`, [issued.id])).toHaveLength(0);
  });

  it("removes the identity's settings flows and leaves flows of nobody", async () => {
    const { token, identityId } = await session('pia@example.com');
    const settings = await app.public.get<{ id: string }>('/self-service/settings/api', { headers: { 'x-session-token': token } });
    expect(settings.status).toBe(200);
    const login = await app.public.get<{ id: string }>('/self-service/login/api');
    expect(login.status).toBe(200);
    const flows = `SELECT id FROM self_service_flows WHERE id = ANY($1)`;
    expect(await queryDatabase(app.databaseUrl, flows, [[settings.body.id, login.body.id]])).toHaveLength(2);
    expect((await app.admin.delete(`/identities/${identityId}`)).status).toBe(204);
    expect(await queryDatabase(app.databaseUrl, flows, [[settings.body.id, login.body.id]])).toEqual([{ id: login.body.id }]);
  });

  it('an identity update through the admin API shows in whoami on both instances', async () => {
    const { token, identityId } = await session('oli@example.com');
    for (const target of [app, other]) await target.public.get('/sessions/whoami', { headers: { 'x-session-token': token } });
    expect(
      (await app.admin.put(`/identities/${identityId}`, { json: { traits: { email: 'oli@example.com', name: { first: 'Oli' } } } })).status,
    ).toBe(200);
    const deadline = Date.now() + 5000;
    let traits: Record<string, unknown> = {};
    while (Date.now() < deadline) {
      traits = (await other.public.get<SessionShape>('/sessions/whoami', { headers: { 'x-session-token': token } })).body.identity.traits;
      if (traits['name'] !== undefined) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(traits).toEqual({ email: 'oli@example.com', name: { first: 'Oli' } });
  });
});

describe('GET /self-service/errors', () => {
  it('stub:500 gives the stub container; an unknown id 404; no id 400', async () => {
    const stub = await app.public.get<{ id: string; created_at: string; updated_at: string; errors: { code: number; reason: string }[] }>(
      '/self-service/errors?error=stub:500',
    );
    expect(stub.status).toBe(200);
    // selfServiceErrorContainer: id, created_at, updated_at, errors.
    expect(Object.keys(stub.body).sort()).toEqual(['created_at', 'errors', 'id', 'updated_at']);
    expect(stub.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(stub.body.created_at))).toBe(false);
    expect(stub.body.errors).toEqual([
      {
        code: 500,
        status: 'Internal Server Error',
        reason: 'This is a stub error.',
        message: 'An internal server error occurred, please contact the system administrator',
      },
    ]);
    expect((await app.public.get('/self-service/errors?error=1b4e28ba-2fa1-41d2-883f-0016d3cca427')).status).toBe(404);
    expect((await app.public.get('/self-service/errors?error=garbage')).status).toBe(404);
    expect((await app.public.get('/self-service/errors')).status).toBe(400);
  });
});
