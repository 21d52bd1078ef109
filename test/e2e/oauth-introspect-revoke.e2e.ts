import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import { authorize, basic, createClient, expectOAuthError, token, type WireClient, type WireTokenResponse } from '../support/oauth.js';
import { ageLoginRequests, expireAccessToken, expireAuthorizationCode, expireRefreshToken } from '../support/time-travel.js';

/**
 * POST /oauth2/introspect (admin listener, RFC 7662), POST /oauth2/revoke (public, RFC 7009) with the
 * the revocation security cases, and POST /oauth2/flush (the janitor).
 */
let app: TestApp;
let cc: WireClient;
let web: WireClient;

beforeAll(async () => {
  app = await bootApp({ OAUTH2_JANITOR_INTERVAL: '0' });
  cc = await createClient(app, {
    grant_types: ['client_credentials'],
    response_types: [],
    scope: 'read write',
    audience: ['https://api.example'],
  });
  web = await createClient(app, {
    redirect_uris: ['https://web.example/cb'],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  });
});

afterAll(async () => {
  await app?.close();
});

async function ccToken(scope = 'read', client: WireClient = cc): Promise<string> {
  const response = await token(app, { grant_type: 'client_credentials', scope }, basic(client.client_id, client.client_secret!));
  expect(response.status, response.text).toBe(200);
  return response.body.access_token;
}

async function webTokens(): Promise<WireTokenResponse> {
  const { parameters } = await authorize(app, web.client_id, { subject: 'bob', scope: ['openid', 'offline'] });
  const response = await token(
    app,
    { grant_type: 'authorization_code', code: parameters['code']!, redirect_uri: 'https://web.example/cb' },
    basic(web.client_id, web.client_secret!),
  );
  expect(response.status, response.text).toBe(200);
  return response.body;
}

function introspect(value: string, extra: Record<string, string> = {}) {
  return app.admin.post<Record<string, unknown>>('/oauth2/introspect', { form: { token: value, ...extra } });
}

function revoke(value: string, client: WireClient = cc) {
  return app.public.post('/oauth2/revoke', { form: { token: value }, headers: basic(client.client_id, client.client_secret!) });
}

describe('POST /oauth2/introspect', () => {
  it('describes an active client_credentials access token', async () => {
    const value = await ccToken('read write');
    const response = await introspect(value);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      active: true,
      scope: 'read write',
      client_id: cc.client_id,
      sub: cc.client_id,
      exp: expect.any(Number),
      iat: expect.any(Number),
      nbf: expect.any(Number),
      aud: [],
      iss: app.running.config.urls.issuer,
      token_type: 'access_token',
      token_use: 'access_token',
      ext: {},
    });
    const body = response.body as { exp: number; iat: number };
    expect(body.exp - body.iat).toBe(3600);
  });

  it('carries the consent session access_token claims as ext, and describes refresh tokens', async () => {
    const tokens = await webTokens();
    expect((await introspect(tokens.access_token)).body).toMatchObject({ active: true, sub: 'bob', ext: { tenant: 'acme' } });
    expect((await introspect(tokens.refresh_token!)).body).toMatchObject({
      active: true,
      sub: 'bob',
      token_type: 'refresh_token',
      token_use: 'refresh_token',
      scope: 'openid offline',
    });
  });

  it('answers {active:false} for unknown, forged, expired and revoked tokens, codes and ID tokens', async () => {
    const expired = await ccToken();
    await expireAccessToken(app, expired.split('.')[1], '1 second');
    const revoked = await ccToken();
    expect((await revoke(revoked)).status).toBe(200);
    const forged = `${(await ccToken()).slice(0, -3)}AAA`;
    const { parameters } = await authorize(app, web.client_id, { scope: ['openid'], responseTypes: ['code', 'id_token'], nonce: 'n' });
    for (const value of [expired, revoked, forged, 'garbage', parameters['code']!, parameters['id_token']!]) {
      const response = await introspect(value);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ active: false });
    }
  });

  it('is inactive when the token lacks a scope the caller asks about', async () => {
    const value = await ccToken('read');
    expect((await introspect(value, { scope: 'read' })).body['active']).toBe(true);
    expect((await introspect(value, { scope: 'read write' })).body).toEqual({ active: false });
  });

  it('needs the token parameter, a form body and an admin credential (or client authentication); does not exist on the public listener', async () => {
    expectOAuthError(await app.admin.post('/oauth2/introspect', { form: {} }), 400, 'invalid_request');
    expectOAuthError(await app.admin.post('/oauth2/introspect', { json: { token: 'x' } }), 400, 'invalid_request');
    // Without any credential the caller must be a client, and it authenticated as none.
    const anonymous = await app.anonymousAdmin.post('/oauth2/introspect', { form: { token: await ccToken() } });
    expectOAuthError(anonymous, 401, 'invalid_client');
    // A valid access token is not an admin credential without the admin scope.
    const value = await ccToken();
    expectOAuthError(await app.anonymousAdmin.withToken(value).post('/oauth2/introspect', { form: { token: value } }), 401, 'unauthorized');
    expect((await app.public.post('/oauth2/introspect', { form: { token: 'x' } })).status).toBe(404);
    expect((await app.admin.post('/admin/oauth2/introspect', { form: { token: await ccToken() } })).body).toMatchObject({ active: true });
  });
});

describe('POST /oauth2/revoke', () => {
  it('revokes an access token of the calling client: 200, empty body', async () => {
    const value = await ccToken();
    const response = await revoke(value);
    expect(response.status, response.text).toBe(200);
    expect(response.text).toBe('');
    expect((await introspect(value)).body).toEqual({ active: false });
  });

  it('S35: client B cannot revoke client A tokens; they stay valid', async () => {
    const other = await createClient(app, { grant_types: ['client_credentials'], response_types: [] });
    const access = await ccToken();
    expectOAuthError(await revoke(access, other), 400, 'unauthorized_client');
    expect((await introspect(access)).body['active']).toBe(true);
    const tokens = await webTokens();
    expectOAuthError(await revoke(tokens.refresh_token!, other), 400, 'unauthorized_client');
    expect((await introspect(tokens.refresh_token!)).body['active']).toBe(true);
  });

  it('S36: garbage, expired and already revoked tokens answer 200 with an empty body', async () => {
    const value = await ccToken();
    expect((await revoke(value)).status).toBe(200);
    const again = await revoke(value);
    expect(again.status).toBe(200);
    expect(again.text).toBe('');
    expect((await revoke('complete-garbage')).status).toBe(200);
    const expired = await ccToken();
    await expireAccessToken(app, expired.split('.')[1], '1 second');
    expect((await revoke(expired)).status).toBe(200);
  });

  it('S37: revoking a refresh token refuses it on refresh and makes its access tokens fail at /userinfo', async () => {
    const tokens = await webTokens();
    expect((await revoke(tokens.refresh_token!, web)).status).toBe(200);
    const refreshed = await token(
      app,
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! },
      basic(web.client_id, web.client_secret!),
    );
    expectOAuthError(refreshed, 400, 'invalid_grant');
    const userinfo = await app.public.get('/userinfo', { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(userinfo.status).toBe(401);
  });

  it('revoking an access token leaves the refresh token of its grant working', async () => {
    const tokens = await webTokens();
    expect((await revoke(tokens.access_token, web)).status).toBe(200);
    const refreshed = await token(
      app,
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! },
      basic(web.client_id, web.client_secret!),
    );
    expect(refreshed.status, refreshed.text).toBe(200);
  });

  it('S38: a confidential client without or with wrong credentials gets 401 invalid_client', async () => {
    const value = await ccToken();
    expectOAuthError(await app.public.post('/oauth2/revoke', { form: { token: value } }), 401, 'invalid_client');
    const wrong = await app.public.post('/oauth2/revoke', { form: { token: value }, headers: basic(cc.client_id, 'wrong-secret') });
    expectOAuthError(wrong, 401, 'invalid_client');
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect((await introspect(value)).body['active']).toBe(true);
  });

  it('S34: needs the token parameter once, in a form body; a refused request revokes nothing', async () => {
    const auth = basic(cc.client_id, cc.client_secret!);
    const value = await ccToken();
    expectOAuthError(await app.public.post('/oauth2/revoke', { form: {}, headers: auth }), 400, 'invalid_request');
    expectOAuthError(await app.public.post('/oauth2/revoke', { json: { token: value }, headers: auth }), 400, 'invalid_request');
    const twice = await app.public.post('/oauth2/revoke', {
      rawBody: `token=${encodeURIComponent(value)}&token=${encodeURIComponent(value)}`,
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectOAuthError(twice, 400, 'invalid_request');
    expect((await introspect(value)).body['active']).toBe(true);
  });

  it('a public client revokes its tokens with its client_id alone', async () => {
    const spa = await createClient(app, {
      redirect_uris: ['https://spa.example/cb'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    const { parameters } = await authorize(app, spa.client_id, {
      scope: ['openid'],
      responseTypes: ['code', 'token', 'id_token'],
      nonce: 'n',
    });
    const response = await app.public.post('/oauth2/revoke', { form: { token: parameters['access_token']!, client_id: spa.client_id } });
    expect(response.status, response.text).toBe(200);
    expect((await introspect(parameters['access_token']!)).body).toEqual({ active: false });
  });
});

describe('POST /oauth2/flush', () => {
  async function count(table: string, signature: string): Promise<number> {
    const rows = await queryDatabase(app.databaseUrl, `SELECT count(*)::int AS n FROM ${table} WHERE signature = $1`, [signature]);
    return rows[0]!['n'] as number;
  }

  it('deletes expired codes and tokens, keeps the others', async () => {
    const expired = (await ccToken()).split('.')[1]!;
    const live = (await ccToken()).split('.')[1]!;
    const tokens = await webTokens();
    const expiredRefresh = tokens.refresh_token!.split('.')[1]!;
    await expireAccessToken(app, expired, '1 minute');
    await expireRefreshToken(app, expiredRefresh, '1 minute');
    const response = await app.admin.post('/oauth2/flush', { json: {} });
    expect(response.status, response.text).toBe(204);
    expect(await count('oauth2_access_tokens', expired)).toBe(0);
    expect(await count('oauth2_refresh_tokens', expiredRefresh)).toBe(0);
    expect(await count('oauth2_access_tokens', live)).toBe(1);
  });

  it('notAfter: only what expired before it; a future notAfter never deletes working tokens', async () => {
    const recent = (await ccToken()).split('.')[1]!;
    await expireAccessToken(app, recent, '1 minute');
    const live = (await ccToken()).split('.')[1]!;
    const past = new Date(Date.now() - 3600_000).toISOString();
    expect((await app.admin.post('/oauth2/flush', { json: { notAfter: past } })).status).toBe(204);
    expect(await count('oauth2_access_tokens', recent)).toBe(1);
    const future = new Date(Date.now() + 24 * 3600_000).toISOString();
    expect((await app.admin.post('/oauth2/flush', { json: { notAfter: future } })).status).toBe(204);
    expect(await count('oauth2_access_tokens', recent)).toBe(0);
    expect(await count('oauth2_access_tokens', live)).toBe(1);
    expect((await app.admin.post('/oauth2/flush')).status).toBe(204);
  });

  it('deletes expired codes and the login requests of flows past TTL_LOGIN_CONSENT_REQUEST', async () => {
    const { parameters } = await authorize(app, web.client_id, { scope: ['openid'] });
    const code = parameters['code']!.split('.')[1]!;
    await expireAuthorizationCode(app, code, '1 minute');
    const live = (await authorize(app, web.client_id, { scope: ['openid'] })).parameters['code']!.split('.')[1]!;
    const started = await app.public.get(
      `/oauth2/auth?${new URLSearchParams({ client_id: web.client_id, redirect_uri: 'https://web.example/cb', response_type: 'code', scope: 'openid', state: 'state-0123456789' }).toString()}`,
    );
    expect(started.status, started.text).toBe(302);
    const loginRequests = async (): Promise<number> =>
      (
        await queryDatabase(app.databaseUrl, 'SELECT count(*)::int AS n FROM oauth2_login_requests WHERE client_id = $1', [web.client_id])
      )[0]!['n'] as number;
    expect(await loginRequests()).toBe(1);
    expect((await app.admin.post('/oauth2/flush', { json: {} })).status).toBe(204);
    // The flow is fresh: it stays.
    expect(await loginRequests()).toBe(1);
    await ageLoginRequests(app, '31 minutes', { client_id: web.client_id });
    expect((await app.admin.post('/oauth2/flush', { json: {} })).status).toBe(204);
    expect(await loginRequests()).toBe(0);
    expect(await count('oauth2_authorization_codes', code)).toBe(0);
    expect(await count('oauth2_authorization_codes', live)).toBe(1);
  });

  it('refuses a notAfter that is not RFC 3339, and callers without an admin credential', async () => {
    expectOAuthError(await app.admin.post('/oauth2/flush', { json: { notAfter: 'yesterday' } }), 400, 'invalid_request');
    expectOAuthError(await app.anonymousAdmin.post('/oauth2/flush', { json: {} }), 401, 'unauthorized');
    expectOAuthError(await app.anonymousAdmin.withToken('lk_admin_wrong').post('/oauth2/flush', { json: {} }), 401, 'unauthorized');
    expectOAuthError(await app.anonymousAdmin.withToken(await ccToken()).post('/oauth2/flush', { json: {} }), 401, 'unauthorized');
    expect((await app.public.post('/oauth2/flush', { json: {} })).status).toBe(404);
  });
});

describe('the periodic janitor (OAUTH2_JANITOR_INTERVAL)', () => {
  it('deletes expired tokens on its own, with no call to flush', async () => {
    const periodic = await bootApp({ OAUTH2_JANITOR_INTERVAL: '1s' });
    try {
      const client = await createClient(periodic, { grant_types: ['client_credentials'], response_types: [] });
      const issue = async (): Promise<string> => {
        const response = await token(periodic, { grant_type: 'client_credentials' }, basic(client.client_id, client.client_secret!));
        expect(response.status, response.text).toBe(200);
        return response.body.access_token.split('.')[1]!;
      };
      const expired = await issue();
      const live = await issue();
      await expireAccessToken(periodic, expired, '1 minute');
      const rows = async (signature: string): Promise<number> =>
        (
          await queryDatabase<{ n: number }>(
            periodic.databaseUrl,
            'SELECT count(*)::int AS n FROM oauth2_access_tokens WHERE signature = $1',
            [signature],
          )
        )[0]!.n;
      // Waits for the job (every second), whatever the machine's load; asserts nothing about speed.
      await vi.waitFor(async () => expect(await rows(expired)).toBe(0), { timeout: 20_000, interval: 250 });
      expect(await rows(live)).toBe(1);
    } finally {
      await periodic.close();
    }
  });
});
