import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { authorize, basic, createClient, expectOAuthError, token } from '../support/oauth.js';
import { expireAccessToken } from '../support/time-travel.js';

/**
 * The admin API accepts access tokens this service issued with the client_credentials grant and the
 * admin scope (OAUTH2_ADMIN_SCOPE), besides the static admin tokens.
 */
let app: TestApp;
const ADMIN_SCOPE = 'latchkey.admin';
const CHECK = '/check?namespace=files&object=doc&relation=view&subject=alice';
const ALLOWED_REQUEST = { subject: 'alice', action: 'read', resource: 'doc' };

beforeAll(async () => {
  app = await bootApp();
});

afterAll(async () => {
  await app?.close();
});

async function clientToken(scope: string): Promise<string> {
  const client = await createClient(app, { grant_types: ['client_credentials'], response_types: [], scope: `${ADMIN_SCOPE} read` });
  const response = await token(app, { grant_type: 'client_credentials', scope }, basic(client.client_id, client.client_secret!));
  expect(response.status, response.text).toBe(200);
  return response.body.access_token;
}

describe('admin-scope access tokens', () => {
  it('a client_credentials token with the admin scope calls admin routes', async () => {
    const admin = app.anonymousAdmin.withToken(await clientToken(`${ADMIN_SCOPE} read`));
    const response = await admin.get('/clients');
    expect(response.status, response.text).toBe(200);
    expect((await admin.post('/oauth2/introspect', { form: { token: 'x' } })).status).toBe(200);
    // Plain admin routes ask the same verifier: the check answers (403, nothing allowed), not 401.
    expect((await admin.get(CHECK)).status).toBe(403);
    expect((await admin.post('/engines/acp/service/exact/allowed', { json: ALLOWED_REQUEST })).status).toBe(403);
  });

  it('a client registered with scope * or latchkey.* gets no admin-scope token, under either strategy', async () => {
    for (const scope of ['*', 'latchkey.*', '*.admin']) {
      const client = await createClient(app, { grant_types: ['client_credentials'], response_types: [], scope });
      const refused = await token(
        app,
        { grant_type: 'client_credentials', scope: ADMIN_SCOPE },
        basic(client.client_id, client.client_secret!),
      );
      expectOAuthError(refused, 400, 'invalid_scope');
      const ordinary = await token(
        app,
        { grant_type: 'client_credentials', scope: 'latchkey.read' },
        basic(client.client_id, client.client_secret!),
      );
      expect(ordinary.status, ordinary.text).toBe(scope === '*.admin' ? 400 : 200);
      if (ordinary.status === 200) {
        expectOAuthError(await app.anonymousAdmin.withToken(ordinary.body.access_token).get('/clients'), 401, 'unauthorized');
      }
    }
  });

  it('a client registered with scope * cannot ask the authorization endpoint for the admin scope', async () => {
    const web = await createClient(app, {
      redirect_uris: ['https://web.example/cb'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      scope: 'openid *',
    });
    const query = (scope: string): string =>
      new URLSearchParams({
        client_id: web.client_id,
        redirect_uri: 'https://web.example/cb',
        response_type: 'code',
        scope,
        state: 'state-0123456789',
      }).toString();
    const refused = await app.public.get(`/oauth2/auth?${query(`openid ${ADMIN_SCOPE}`)}`);
    expect(refused.status).toBe(302);
    expect(new URL(refused.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
    const allowed = await app.public.get(`/oauth2/auth?${query('openid photos.read')}`);
    expect(allowed.status).toBe(302);
    expect(new URL(allowed.headers.get('location')!).searchParams.get('login_challenge')).not.toBeNull();
  });

  it('a token without the admin scope cannot', async () => {
    const client = app.anonymousAdmin.withToken(await clientToken('read'));
    expectOAuthError(await client.get('/clients'), 401, 'unauthorized');
    const check = await client.get(CHECK);
    expect(check.status).toBe(401);
    expect(check.body).toMatchObject({ id: 'unauthorized' });
    expect((await client.post('/engines/acp/service/exact/allowed', { json: ALLOWED_REQUEST })).status).toBe(401);
  });

  it('an expired admin-scope token cannot, and changes nothing', async () => {
    const value = await clientToken(ADMIN_SCOPE);
    await expireAccessToken(app, value.split('.')[1], '1 second');
    const admin = app.anonymousAdmin.withToken(value);
    expectOAuthError(await admin.get('/clients'), 401, 'unauthorized');
    expectOAuthError(await admin.post('/clients', { json: { client_id: 'made-by-an-expired-token' } }), 401, 'unauthorized');
    expect((await app.admin.get('/clients/made-by-an-expired-token')).status).toBe(404);
  });

  it('a revoked or unknown token cannot', async () => {
    const client = await createClient(app, { grant_types: ['client_credentials'], response_types: [], scope: ADMIN_SCOPE });
    const issued = await token(
      app,
      { grant_type: 'client_credentials', scope: ADMIN_SCOPE },
      basic(client.client_id, client.client_secret!),
    );
    // Revoked before its first use: no cached answer keeps it working.
    expect(
      (
        await app.public.post('/oauth2/revoke', {
          form: { token: issued.body.access_token },
          headers: basic(client.client_id, client.client_secret!),
        })
      ).status,
    ).toBe(200);
    expect((await app.anonymousAdmin.withToken(issued.body.access_token).get('/clients')).status).toBe(401);
    expect((await app.anonymousAdmin.withToken('lk_at_unknown.token').get('/clients')).status).toBe(401);
  });

  it('a user token granted the admin scope through consent cannot: only client_credentials tokens are admin credentials', async () => {
    const web = await createClient(app, {
      redirect_uris: ['https://web.example/cb'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      scope: `openid ${ADMIN_SCOPE}`,
    });
    const { parameters } = await authorize(app, web.client_id, { scope: ['openid', ADMIN_SCOPE] });
    const issued = await token(
      app,
      { grant_type: 'authorization_code', code: parameters['code']!, redirect_uri: 'https://web.example/cb' },
      basic(web.client_id, web.client_secret!),
    );
    expect(issued.status, issued.text).toBe(200);
    expectOAuthError(await app.anonymousAdmin.withToken(issued.body.access_token).get('/clients'), 401, 'unauthorized');
  });

  it('a refresh token or an ID token is never an admin credential', async () => {
    const web = await createClient(app, {
      redirect_uris: ['https://web.example/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: `openid offline ${ADMIN_SCOPE}`,
    });
    const { parameters } = await authorize(app, web.client_id, { scope: ['openid', 'offline', ADMIN_SCOPE] });
    const issued = await token(
      app,
      { grant_type: 'authorization_code', code: parameters['code']!, redirect_uri: 'https://web.example/cb' },
      basic(web.client_id, web.client_secret!),
    );
    expect(issued.status, issued.text).toBe(200);
    for (const value of [issued.body.refresh_token!, issued.body.id_token!]) {
      expectOAuthError(await app.anonymousAdmin.withToken(value).get('/clients'), 401, 'unauthorized');
    }
  });
});
