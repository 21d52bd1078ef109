import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID_TOKEN_SET } from '../../src/keys/key-sets.js';
import { KeysService } from '../../src/keys/keys.service.js';
import { bootApp, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import {
  exchangeCode,
  OAuthBrowser,
  pkcePair,
  queryParam,
  registerClient,
  responseParams,
  type RegisteredClient,
} from '../support/oauth-browser.js';

const CALLBACK = 'https://client.example/cb';
const STATE = 'state-0123456789';
const NONCE = 'nonce-0123456789';

let app: TestApp;
let client: RegisteredClient;

beforeAll(async () => {
  app = await bootApp({ OIDC_SUBJECT_TYPES: 'public,pairwise' });
  client = await registerClient(app, {
    redirect_uris: [CALLBACK],
    grant_types: ['authorization_code', 'implicit', 'refresh_token'],
    response_types: ['code', 'id_token token', 'code id_token', 'code id_token token'],
    scope: 'openid offline_access profile',
  });
});

afterAll(async () => {
  await app?.close();
});

function query(overrides: Record<string, string> = {}): Record<string, string> {
  return { client_id: client.client_id, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', state: STATE, ...overrides };
}

interface LoginRequestBody {
  skip: boolean;
  subject: string;
  session_id: string;
}

async function loginRequestOf(location: string): Promise<LoginRequestBody> {
  const response = await app.admin.get<LoginRequestBody>(
    `/oauth2/auth/requests/login?login_challenge=${encodeURIComponent(queryParam(location, 'login_challenge')!)}`,
  );
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function consentRequestOf(location: string): Promise<LoginRequestBody> {
  const response = await app.admin.get<LoginRequestBody>(
    `/oauth2/auth/requests/consent?consent_challenge=${encodeURIComponent(queryParam(location, 'consent_challenge')!)}`,
  );
  expect(response.status, response.text).toBe(200);
  return response.body;
}

function clientParams(location: string): URLSearchParams {
  expect(location.startsWith(CALLBACK), location).toBe(true);
  return responseParams(location);
}

describe('authorization code with PKCE', () => {
  it('ends in tokens for the verifier that matches the challenge, and only once', async () => {
    const browser = new OAuthBrowser(app);
    const pkce = pkcePair();
    const location = await browser.completeFlow(
      query({ scope: 'openid offline_access', nonce: NONCE, code_challenge: pkce.challenge, code_challenge_method: 'S256' }),
      { subject: 'alice' },
      { grant_scope: ['openid', 'offline_access'], session: { id_token: { email: 'alice@example.com' } } },
    );
    const params = clientParams(location);
    expect(params.get('state')).toBe(STATE);
    const code = params.get('code')!;

    const wrong = await exchangeCode(app, client, code, { verifier: pkcePair().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'invalid_grant' });
    // A failed PKCE check does not redeem the code (as in fosite); the right verifier then does, once.
    const tokens = await exchangeCode(app, client, code, { verifier: pkce.verifier });
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body['access_token']).toBeTruthy();
    expect(tokens.body['refresh_token']).toBeTruthy();
    const idToken = decodeJwt(tokens.body['id_token'] as string);
    expect(idToken).toMatchObject({ sub: 'alice', nonce: NONCE, email: 'alice@example.com' });
    expect(idToken.aud).toContain(client.client_id);
    const replay = await exchangeCode(app, client, code, { verifier: pkce.verifier });
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('needs the code_verifier when the code was bound to a challenge', async () => {
    const pkce = pkcePair();
    const location = await new OAuthBrowser(app).completeFlow(query({ code_challenge: pkce.challenge, code_challenge_method: 'S256' }));
    const response = await exchangeCode(app, client, clientParams(location).get('code')!);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('implicit and hybrid', () => {
  it('implicit (id_token token) returns both tokens in the fragment, the ID token bound to nonce and access token', async () => {
    const location = await new OAuthBrowser(app).completeFlow(query({ response_type: 'id_token token', nonce: NONCE }));
    expect(location.startsWith(`${CALLBACK}#`)).toBe(true);
    const params = clientParams(location);
    expect(params.get('token_type')?.toLowerCase()).toBe('bearer');
    expect(Number(params.get('expires_in'))).toBeGreaterThan(0);
    const idToken = decodeJwt(params.get('id_token')!);
    expect(idToken['nonce']).toBe(NONCE);
    expect(idToken['at_hash']).toBeTruthy();
    const userinfo = await app.public.get<{ sub: string }>('/userinfo', {
      headers: { authorization: `Bearer ${params.get('access_token')}` },
    });
    expect(userinfo.status).toBe(200);
    expect(userinfo.body.sub).toBe('alice');
  });

  it('hybrid (code id_token) returns a code and an ID token holding its c_hash; the code redeems', async () => {
    const location = await new OAuthBrowser(app).completeFlow(query({ response_type: 'code id_token', nonce: NONCE }));
    const params = clientParams(location);
    const idToken = decodeJwt(params.get('id_token')!);
    expect(idToken['c_hash']).toBeTruthy();
    expect(idToken['nonce']).toBe(NONCE);
    const tokens = await exchangeCode(app, client, params.get('code')!);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body['id_token']).toBeTruthy();
  });
});

describe('what the consent app grants is what the tokens carry', () => {
  const API = 'https://api.example/v1';

  it('grant_scope and grant_access_token_audience bound the tokens; session claims land in the ID token, /userinfo and introspection', async () => {
    const bounded = await registerClient(app, {
      redirect_uris: [CALLBACK],
      scope: 'openid offline_access profile',
      audience: [API, 'https://other.example/v1'],
    });
    const browser = new OAuthBrowser(app);
    const loginLocation = await browser.authorize({
      client_id: bounded.client_id,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid offline_access profile',
      audience: `${API} https://other.example/v1`,
      state: STATE,
      nonce: NONCE,
    });
    const loginRequest = await loginRequestOf(loginLocation);
    const consentLocation = await browser.follow(
      await browser.acceptLogin(loginLocation, { subject: 'lena', acr: 'urn:acr:mfa', amr: ['pwd', 'otp'] }),
    );
    const location = await browser.follow(
      await browser.acceptConsent(consentLocation, {
        grant_scope: ['openid', 'profile'],
        grant_access_token_audience: [API],
        session: {
          access_token: { tenant: 'acme', roles: ['reader'] },
          // Claims the service sets itself cannot be replaced through the session.
          id_token: { email: 'lena@example.com', sub: 'mallory', iss: 'https://evil.example', aud: ['evil'], sid: 'forged' },
        },
      }),
    );
    const tokens = await exchangeCode(app, bounded, clientParams(location).get('code')!);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body['scope']).toBe('openid profile');
    // offline_access was requested but not granted: no refresh token.
    expect(tokens.body).not.toHaveProperty('refresh_token');

    const idToken = decodeJwt(tokens.body['id_token'] as string);
    expect(idToken).toMatchObject({
      sub: 'lena',
      iss: app.running.config.urls.issuer,
      aud: [bounded.client_id],
      email: 'lena@example.com',
      nonce: NONCE,
      acr: 'urn:acr:mfa',
      amr: ['pwd', 'otp'],
      sid: loginRequest.session_id,
    });
    expect(typeof idToken['auth_time']).toBe('number');

    const accessToken = tokens.body['access_token'] as string;
    const userinfo = await app.public.get('/userinfo', { headers: { authorization: `Bearer ${accessToken}` } });
    expect(userinfo.status, userinfo.text).toBe(200);
    expect(userinfo.body).toEqual({ sub: 'lena', email: 'lena@example.com' });

    const introspection = await app.admin.post<Record<string, unknown>>('/oauth2/introspect', { form: { token: accessToken } });
    expect(introspection.body).toMatchObject({
      active: true,
      sub: 'lena',
      scope: 'openid profile',
      aud: [API],
      ext: { tenant: 'acme', roles: ['reader'] },
    });
  });

  it('a refresh token needs offline_access granted AND the refresh_token grant registered', async () => {
    const noRefreshGrant = await registerClient(app, { redirect_uris: [CALLBACK], grant_types: ['authorization_code'] });
    const location = await new OAuthBrowser(app).completeFlow(
      { client_id: noRefreshGrant.client_id, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid offline_access', state: STATE },
      { subject: 'mona' },
      { grant_scope: ['openid', 'offline_access'] },
    );
    const tokens = await exchangeCode(app, noRefreshGrant, clientParams(location).get('code')!);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body['scope']).toBe('openid offline_access');
    expect(tokens.body).not.toHaveProperty('refresh_token');

    const withGrant = await new OAuthBrowser(app).completeFlow(
      query({ scope: 'openid offline_access' }),
      { subject: 'mona' },
      { grant_scope: ['openid', 'offline_access'] },
    );
    const refreshable = await exchangeCode(app, client, clientParams(withGrant).get('code')!);
    expect(refreshable.body['refresh_token']).toMatch(/^lk_rt_/);
  });
});

describe('remembered login and consent', () => {
  it('skips the login and consent apps once both were remembered, keeping the subject', async () => {
    const browser = new OAuthBrowser(app);
    await browser.completeFlow(
      query(),
      { subject: 'bob', remember: true, remember_for: 3600 },
      { grant_scope: ['openid'], remember: true },
    );
    expect(browser.jar.get('oauth2_authentication_session')).toBeDefined();

    const loginLocation = await browser.authorize(query());
    expect(await loginRequestOf(loginLocation)).toMatchObject({ skip: true, subject: 'bob' });
    const consentLocation = await browser.follow(await browser.acceptLogin(loginLocation, { subject: 'bob' }));
    expect(await consentRequestOf(consentLocation)).toMatchObject({ skip: true, subject: 'bob' });
    const location = await browser.follow(await browser.acceptConsent(consentLocation, { grant_scope: ['openid'] }));
    expect(clientParams(location).get('code')).toBeTruthy();
  });

  it('does not remember a login accepted without remember', async () => {
    const browser = new OAuthBrowser(app);
    await browser.completeFlow(query(), { subject: 'carol', remember: false });
    expect(await loginRequestOf(await browser.authorize(query()))).toMatchObject({ skip: false });
  });

  it('prompt=login asks the login app again despite a remembered session; prompt=consent asks for consent again', async () => {
    const browser = new OAuthBrowser(app);
    await browser.completeFlow(
      query(),
      { subject: 'dave', remember: true, remember_for: 3600 },
      { grant_scope: ['openid'], remember: true },
    );
    const loginLocation = await browser.authorize(query({ prompt: 'login' }));
    expect((await loginRequestOf(loginLocation)).skip).toBe(false);
    // Accepted with remember again: a login accepted without it would end the remembered session (Hydra).
    const consentLocation = await browser.follow(await browser.acceptLogin(loginLocation, { subject: 'dave', remember: true }));
    expect((await consentRequestOf(consentLocation)).skip).toBe(true);

    const again = await browser.authorize(query({ prompt: 'consent' }));
    expect((await loginRequestOf(again)).skip).toBe(true);
    const consentAgain = await browser.follow(await browser.acceptLogin(again, { subject: 'dave' }));
    expect((await consentRequestOf(consentAgain)).skip).toBe(false);
  });

  it('prompt=none ends silently with a code when login and consent are remembered', async () => {
    const browser = new OAuthBrowser(app);
    await browser.completeFlow(
      query(),
      { subject: 'erin', remember: true, remember_for: 3600 },
      { grant_scope: ['openid'], remember: true },
    );
    const location = await browser.completeFlow(query({ prompt: 'none' }), { subject: 'erin' }, { grant_scope: ['openid'] });
    expect(clientParams(location).get('code')).toBeTruthy();
  });

  it('auth_time: a silent prompt=none keeps the session time; prompt=login and max_age bring a new one', async () => {
    /** A browser whose remembered login session of `subject` authenticated ten minutes ago. */
    const oldSession = async (subject: string): Promise<{ browser: OAuthBrowser; authTime: number }> => {
      const browser = new OAuthBrowser(app);
      await browser.completeFlow(query(), { subject, remember: true, remember_for: 3600 }, { grant_scope: ['openid'], remember: true });
      const authTime = Math.floor(Date.now() / 1000) - 600;
      await queryDatabase(
        app.databaseUrl,
        'UPDATE oauth2_authentication_sessions SET authenticated_at = to_timestamp($1) WHERE subject = $2',
        [authTime, subject],
      );
      return { browser, authTime };
    };
    const authTimeAfter = async (browser: OAuthBrowser, subject: string, extra: Record<string, string>): Promise<number> => {
      const location = await browser.completeFlow(query({ response_type: 'code id_token', nonce: NONCE, ...extra }), { subject });
      return decodeJwt(clientParams(location).get('id_token')!).auth_time as number;
    };

    const kept = await oldSession('olga');
    expect(await authTimeAfter(kept.browser, 'olga', { prompt: 'none' })).toBe(kept.authTime);
    expect(await authTimeAfter(kept.browser, 'olga', { max_age: '3600' })).toBe(kept.authTime);
    const tooOld = await oldSession('otto');
    expect(await authTimeAfter(tooOld.browser, 'otto', { max_age: '60' })).toBeGreaterThan(tooOld.authTime + 500);
    const forced = await oldSession('oona');
    expect(await authTimeAfter(forced.browser, 'oona', { prompt: 'login' })).toBeGreaterThan(forced.authTime + 500);
  });

  it('acr: the one the login app set; "0" when the client asked for acr_values and none was set (fosite)', async () => {
    const acrOf = async (extra: Record<string, string>, login: Record<string, unknown>): Promise<unknown> => {
      const location = await new OAuthBrowser(app).completeFlow(query({ response_type: 'code id_token', nonce: NONCE, ...extra }), login);
      return decodeJwt(clientParams(location).get('id_token')!)['acr'];
    };
    expect(await acrOf({ acr_values: 'urn:mace:incommon:iap:silver' }, { subject: 'pete' })).toBe('0');
    expect(await acrOf({ acr_values: 'urn:mace:incommon:iap:silver' }, { subject: 'pete', acr: 'urn:mace:incommon:iap:silver' })).toBe(
      'urn:mace:incommon:iap:silver',
    );
    expect(await acrOf({}, { subject: 'pete' })).toBeUndefined();
  });

  it('prompt=none without a session sends login_required to the client', async () => {
    const location = await new OAuthBrowser(app).authorize(query({ prompt: 'none' }));
    const params = clientParams(location);
    expect(params.get('error')).toBe('login_required');
    expect(params.get('state')).toBe(STATE);
  });

  it('prompt=none with a session but no remembered consent sends consent_required', async () => {
    const browser = new OAuthBrowser(app);
    await browser.completeFlow(
      query(),
      { subject: 'frank', remember: true, remember_for: 3600 },
      { grant_scope: ['openid'], remember: false },
    );
    const loginLocation = await browser.authorize(query({ prompt: 'none' }));
    const location = await browser.follow(await browser.acceptLogin(loginLocation, { subject: 'frank' }));
    expect(clientParams(location).get('error')).toBe('consent_required');
  });
});

describe('id_token_hint', () => {
  async function idTokenFor(subject: string, login: Record<string, unknown> = {}): Promise<string> {
    const location = await new OAuthBrowser(app).completeFlow(query({ response_type: 'code id_token', nonce: NONCE }), {
      subject,
      ...login,
    });
    return clientParams(location).get('id_token')!;
  }

  it('prompt=none with a hint for the remembered subject ends silently; a hint for someone else gets login_required', async () => {
    const browser = new OAuthBrowser(app);
    const first = await browser.completeFlow(
      query({ response_type: 'code id_token', nonce: NONCE }),
      { subject: 'gina', remember: true, remember_for: 3600 },
      { grant_scope: ['openid'], remember: true },
    );
    const ownHint = clientParams(first).get('id_token')!;
    const silent = await browser.completeFlow(
      query({ prompt: 'none', id_token_hint: ownHint }),
      { subject: 'gina' },
      { grant_scope: ['openid'] },
    );
    expect(clientParams(silent).get('code')).toBeTruthy();

    const otherHint = await idTokenFor('hank');
    const refused = clientParams(await browser.authorize(query({ prompt: 'none', id_token_hint: otherHint })));
    expect(refused.get('error')).toBe('login_required');
    expect(refused.get('state')).toBe(STATE);
    expect(refused.has('code')).toBe(false);
  });

  it('without a session, the login app sees the hint; logging in as someone else is login_required and leaves no session', async () => {
    const hint = await idTokenFor('iris');
    const browser = new OAuthBrowser(app);
    const loginLocation = await browser.authorize(query({ id_token_hint: hint }));
    const loginRequest = await app.admin.get<{ oidc_context: { id_token_hint_claims?: Record<string, unknown> } }>(
      `/oauth2/auth/requests/login?login_challenge=${encodeURIComponent(queryParam(loginLocation, 'login_challenge')!)}`,
    );
    expect(loginRequest.body.oidc_context.id_token_hint_claims).toMatchObject({ sub: 'iris', aud: [client.client_id] });
    const params = clientParams(await browser.follow(await browser.acceptLogin(loginLocation, { subject: 'ivan', remember: true })));
    expect(params.get('error')).toBe('login_required');
    expect(params.get('state')).toBe(STATE);
    expect(params.has('code')).toBe(false);
    expect(browser.jar.get('oauth2_authentication_session')).toBeUndefined();

    // The subject the hint names goes through.
    const again = new OAuthBrowser(app);
    const location = await again.completeFlow(query({ id_token_hint: hint }), { subject: 'iris' });
    expect(clientParams(location).get('code')).toBeTruthy();
  });

  it('an expired ID token issued by this service to this client is still a hint (OIDC Core §3.1.2.1)', async () => {
    const browser = new OAuthBrowser(app);
    await browser.completeFlow(
      query(),
      { subject: 'jill', remember: true, remember_for: 3600 },
      { grant_scope: ['openid'], remember: true },
    );
    const key = await app.running.app.get(KeysService).signingKey(ID_TOKEN_SET);
    const past = Math.floor(Date.now() / 1000) - 7200;
    const expired = await new SignJWT({
      sub: 'jill',
      aud: [client.client_id],
      iss: app.running.config.urls.issuer,
      iat: past,
      exp: past + 60,
    })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
      .sign(key.key);
    const location = await browser.completeFlow(query({ prompt: 'none', id_token_hint: expired }), { subject: 'jill' });
    expect(clientParams(location).get('code')).toBeTruthy();
  });

  it('a hint issued to another client, or signed by someone else, is invalid_request and starts no login', async () => {
    const other = await registerClient(app, {
      redirect_uris: [CALLBACK],
      grant_types: ['authorization_code', 'implicit'],
      response_types: ['code id_token'],
      scope: 'openid',
    });
    const foreign = new OAuthBrowser(app);
    const otherLocation = await foreign.completeFlow(
      { client_id: other.client_id, redirect_uri: CALLBACK, response_type: 'code id_token', scope: 'openid', state: STATE, nonce: NONCE },
      { subject: 'kate' },
    );
    const othersHint = clientParams(otherLocation).get('id_token')!;
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ sub: 'kate', aud: [client.client_id], iss: app.running.config.urls.issuer })
      .setProtectedHeader({ alg: 'RS256', kid: decodeProtectedHeader(othersHint).kid! })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    for (const hint of [othersHint, forged]) {
      const browser = new OAuthBrowser(app);
      const params = clientParams(await browser.authorize(query({ id_token_hint: hint })));
      expect(params.get('error')).toBe('invalid_request');
      expect(params.get('state')).toBe(STATE);
      expect(browser.jar.get('oauth2_authentication_csrf')).toBeUndefined();
    }
  });
});

describe('pairwise subjects', () => {
  let pairwise: RegisteredClient;

  beforeAll(async () => {
    pairwise = await registerClient(app, {
      redirect_uris: [CALLBACK],
      grant_types: ['authorization_code', 'implicit'],
      response_types: ['code id_token'],
      scope: 'openid',
      subject_type: 'pairwise',
    });
  });

  function pairwiseQuery(extra: Record<string, string> = {}): Record<string, string> {
    return {
      client_id: pairwise.client_id,
      redirect_uri: CALLBACK,
      response_type: 'code id_token',
      scope: 'openid',
      state: STATE,
      nonce: NONCE,
      ...extra,
    };
  }

  it('the client sees a per-sector sub in the ID token, the access token and /userinfo; introspection shows both', async () => {
    const browser = new OAuthBrowser(app);
    const location = await browser.completeFlow(pairwiseQuery(), { subject: 'quinn' });
    const params = clientParams(location);
    const sub = decodeJwt(params.get('id_token')!).sub!;
    expect(sub).toMatch(/^[0-9a-f]{64}$/);
    const tokens = await exchangeCode(app, pairwise, params.get('code')!);
    expect(decodeJwt(tokens.body['id_token'] as string).sub).toBe(sub);
    const accessToken = tokens.body['access_token'] as string;
    const userinfo = await app.public.get<{ sub: string }>('/userinfo', { headers: { authorization: `Bearer ${accessToken}` } });
    expect(userinfo.body.sub).toBe(sub);
    const introspection = await app.admin.post('/oauth2/introspect', { form: { token: accessToken } });
    expect(introspection.body).toMatchObject({ active: true, sub: 'quinn', obfuscated_subject: sub });

    // Another sector (another host) sees another sub for the same person.
    const elsewhere = await registerClient(app, {
      redirect_uris: ['https://elsewhere.example/cb'],
      grant_types: ['authorization_code', 'implicit'],
      response_types: ['code id_token'],
      scope: 'openid',
      subject_type: 'pairwise',
    });
    const otherLocation = await new OAuthBrowser(app).completeFlow(
      { ...pairwiseQuery(), client_id: elsewhere.client_id, redirect_uri: 'https://elsewhere.example/cb' },
      { subject: 'quinn' },
    );
    const otherSub = decodeJwt(responseParams(otherLocation).get('id_token')!).sub;
    expect(otherSub).toMatch(/^[0-9a-f]{64}$/);
    expect(otherSub).not.toBe(sub);
  });

  it('force_subject_identifier replaces the pairwise sub (pairwise clients only, as in Hydra) and is honoured by id_token_hint', async () => {
    const browser = new OAuthBrowser(app);
    const location = await browser.completeFlow(
      pairwiseQuery(),
      { subject: 'rosa', force_subject_identifier: 'rosa-at-this-rp', remember: true, remember_for: 3600 },
      { grant_scope: ['openid'], remember: true },
    );
    const hint = clientParams(location).get('id_token')!;
    expect(decodeJwt(hint).sub).toBe('rosa-at-this-rp');
    // The remembered session is rosa's, and the hint names her by the forced identifier: a silent
    // answer. The identifier holds for one login accept (Hydra): the login app gives it each time.
    const silent = await browser.completeFlow(pairwiseQuery({ prompt: 'none', id_token_hint: hint }), {
      subject: 'rosa',
      force_subject_identifier: 'rosa-at-this-rp',
    });
    expect(decodeJwt(clientParams(silent).get('id_token')!).sub).toBe('rosa-at-this-rp');

    const publicLocation = await new OAuthBrowser(app).completeFlow(query({ response_type: 'code id_token', nonce: NONCE }), {
      subject: 'rosa',
      force_subject_identifier: 'ignored-for-public',
    });
    expect(decodeJwt(clientParams(publicLocation).get('id_token')!).sub).toBe('rosa');
  });
});

describe('rejections', () => {
  it("a rejected login reaches the client with the app's error, description and hint", async () => {
    const browser = new OAuthBrowser(app);
    const loginLocation = await browser.authorize(query());
    const redirectTo = await browser.rejectLogin(loginLocation, {
      error: 'login_denied_by_policy',
      error_description: 'Not from this network',
      error_hint: 'Use the VPN',
      status_code: 403,
    });
    const params = clientParams(await browser.follow(redirectTo));
    expect(params.get('error')).toBe('login_denied_by_policy');
    expect(params.get('error_description')).toBe('Not from this network');
    expect(params.get('error_hint')).toBe('Use the VPN');
    expect(params.get('state')).toBe(STATE);
  });

  it('a rejected consent reaches the client as an error, in the fragment for an implicit request', async () => {
    const browser = new OAuthBrowser(app);
    const loginLocation = await browser.authorize(query({ response_type: 'id_token token', nonce: NONCE }));
    const consentLocation = await browser.follow(await browser.acceptLogin(loginLocation));
    const location = await browser.follow(
      await browser.rejectConsent(consentLocation, { error: 'access_denied', error_description: 'No' }),
    );
    expect(location.startsWith(`${CALLBACK}#`)).toBe(true);
    expect(clientParams(location).get('error')).toBe('access_denied');
  });
});

describe('verifiers bound to the browser', () => {
  it('S15: a login verifier brought back without the CSRF cookie is refused with 403 request_forbidden', async () => {
    const browser = new OAuthBrowser(app);
    const redirectTo = await browser.acceptLogin(await browser.authorize(query()));
    browser.jar.delete('oauth2_authentication_csrf');
    const response = await browser.get(redirectTo, { accept: 'application/json' });
    expect(response.status).toBe(403);
    expect(response.headers.get('location')).toBeNull();
    expect(response.body).toMatchObject({ error: 'request_forbidden' });
  });

  it('S15: a consent verifier replayed in another browser is refused with 403', async () => {
    const browser = new OAuthBrowser(app);
    const consentLocation = await browser.follow(await browser.acceptLogin(await browser.authorize(query())));
    const redirectTo = await browser.acceptConsent(consentLocation);
    const response = await new OAuthBrowser(app).get(redirectTo, { accept: 'text/html' });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.text).toContain('request_forbidden');
  });

  it('S14: a used login verifier is refused with access_denied, and no second code comes from a used consent verifier', async () => {
    const browser = new OAuthBrowser(app);
    const loginRedirect = await browser.acceptLogin(await browser.authorize(query()));
    const consentLocation = await browser.follow(loginRedirect);
    expect(clientParams(await browser.follow(loginRedirect)).get('error')).toBe('access_denied');

    const consentRedirect = await browser.acceptConsent(consentLocation);
    expect(clientParams(await browser.follow(consentRedirect)).get('code')).toBeTruthy();
    const replay = clientParams(await browser.follow(consentRedirect));
    expect(replay.get('error')).toBe('access_denied');
    expect(replay.has('code')).toBe(false);
  });

  it('S14: of several redemptions of one verifier at once, exactly one goes on', async () => {
    const browser = new OAuthBrowser(app);
    const loginRedirect = await browser.acceptLogin(await browser.authorize(query()));
    const logins = await Promise.all(Array.from({ length: 4 }, () => browser.get(loginRedirect)));
    const locations = logins.map((response) => browser.redirectOf(response));
    const consentLocations = locations.filter((location) => !location.startsWith(CALLBACK));
    expect(consentLocations).toHaveLength(1);
    const refusals = locations.filter((location) => location.startsWith(CALLBACK)).map((location) => clientParams(location).get('error'));
    expect(refusals).toEqual(['access_denied', 'access_denied', 'access_denied']);

    const consentRedirect = await browser.acceptConsent(consentLocations[0]!);
    const grants = await Promise.all(Array.from({ length: 4 }, () => browser.get(consentRedirect)));
    const params = grants.map((response) => clientParams(browser.redirectOf(response)));
    expect(params.filter((param) => param.has('code'))).toHaveLength(1);
    expect(params.filter((param) => param.get('error') === 'access_denied')).toHaveLength(3);
  });
});

describe('lifetimes are configurable', () => {
  let longer: TestApp;

  beforeAll(async () => {
    longer = await bootApp({
      TTL_LOGIN_CONSENT_REQUEST: '1h',
      TTL_AUTH_CODE: '30s',
      TTL_ACCESS_TOKEN: '5m',
      TTL_REFRESH_TOKEN: '2h',
      TTL_ID_TOKEN: '10m',
    });
  });

  afterAll(async () => {
    await longer?.close();
  });

  /** A browser whose login was accepted, and the flow's start moved `minutes` into the past. */
  async function acceptedLogin(minutes: number): Promise<{ browser: OAuthBrowser; redirectTo: string }> {
    const registered = await registerClient(longer);
    const browser = new OAuthBrowser(longer);
    const loginLocation = await browser.authorize({
      client_id: registered.client_id,
      redirect_uri: registered.redirect_uris[0]!,
      response_type: 'code',
      scope: 'openid',
      state: STATE,
    });
    const challenge = queryParam(loginLocation, 'login_challenge')!;
    const redirectTo = await browser.acceptLogin(loginLocation);
    await queryDatabase(
      longer.databaseUrl,
      `UPDATE oauth2_login_requests SET requested_at = now() - make_interval(mins => $1) WHERE client_id = $2`,
      [minutes, registered.client_id],
    );
    expect((await longer.admin.get(`/oauth2/auth/requests/login?login_challenge=${encodeURIComponent(challenge)}`)).status).toBe(
      minutes < 60 ? 200 : 404,
    );
    return { browser, redirectTo };
  }

  it('TTL_AUTH_CODE, TTL_ACCESS_TOKEN, TTL_REFRESH_TOKEN and TTL_ID_TOKEN set what is issued', async () => {
    const registered = await registerClient(longer);
    const location = await new OAuthBrowser(longer).completeFlow(
      {
        client_id: registered.client_id,
        redirect_uri: registered.redirect_uris[0]!,
        response_type: 'code',
        scope: 'openid offline_access',
        state: STATE,
      },
      { subject: 'nina' },
    );
    const code = clientParams(location).get('code')!;
    const [row] = await queryDatabase<{ seconds: number }>(
      longer.databaseUrl,
      `SELECT extract(epoch FROM expires_at - issued_at)::int AS seconds FROM oauth2_authorization_codes WHERE signature = $1`,
      [code.split('.')[1]],
    );
    expect(row!.seconds).toBe(30);
    const tokens = await exchangeCode(longer, registered, code);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body['expires_in']).toBe(300);
    const idToken = decodeJwt(tokens.body['id_token'] as string);
    expect(idToken.exp! - idToken.iat!).toBe(600);
    const refresh = await longer.admin.post<{ exp: number; iat: number }>('/oauth2/introspect', {
      form: { token: tokens.body['refresh_token'] as string },
    });
    expect(refresh.body.exp - refresh.body.iat).toBe(7200);
  });

  it('a flow 45 minutes old (past the 30-minute default) still completes under 1h', async () => {
    const { browser, redirectTo } = await acceptedLogin(45);
    const consentLocation = await browser.follow(redirectTo);
    expect(queryParam(consentLocation, 'consent_challenge')).not.toBeNull();
  });

  it('a flow 61 minutes old is refused with 401 request_unauthorized, shown to the browser, not sent to the client', async () => {
    const { browser, redirectTo } = await acceptedLogin(61);
    const response = await browser.get(redirectTo, { accept: 'application/json' });
    expect(response.status).toBe(401);
    expect(response.headers.get('location')).toBeNull();
    expect(response.body).toMatchObject({ error: 'request_unauthorized' });
  });
});
