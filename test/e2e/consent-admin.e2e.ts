import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsentFlowService } from '../../src/consent/consent-flow.service.js';
import { bootApp, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import type { HttpResponse } from '../support/http.js';
import { OAuthBrowser, queryParam, registerClient, responseParams, type RegisteredClient } from '../support/oauth-browser.js';
import { expectOAuthError, token } from '../support/oauth.js';
import { ageAuthentications, ageConsentRequests, ageLoginRequests, expireAuthentications } from '../support/time-travel.js';

const ISSUER = 'https://id.example';
const LOGIN_APP = 'https://apps.example/login';
const CONSENT_APP = 'https://apps.example/consent';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let app: TestApp;
let client: RegisteredClient;

beforeAll(async () => {
  app = await bootApp({
    ISSUER_URL: ISSUER,
    URLS_LOGIN: LOGIN_APP,
    URLS_CONSENT: CONSENT_APP,
    URLS_ERROR: 'https://apps.example/error',
  });
  client = await registerClient(app);
});

afterAll(async () => {
  await app?.close();
});

function query(extra: Record<string, string> = {}, forClient: RegisteredClient = client): Record<string, string> {
  return {
    client_id: forClient.client_id,
    response_type: 'code',
    redirect_uri: forClient.redirect_uris[0]!,
    scope: 'openid offline_access',
    state: 'state-0123456789',
    ...extra,
  };
}

/** The error of an authorization response: from the redirect to the client, or from the body when shown here. */
function authorizeError(response: HttpResponse): string | null {
  if (response.status === 302) return responseParams(response.headers.get('location')!).get('error');
  return (response.body as { error?: string } | undefined)?.error ?? null;
}

function challengeOf(location: string, step: 'login' | 'consent'): string {
  const challenge = queryParam(location, `${step}_challenge`);
  expect(challenge, location).not.toBeNull();
  return challenge!;
}

interface WireLoginRequest {
  challenge: string;
  requested_scope: string[];
  requested_access_token_audience: string[];
  skip: boolean;
  subject: string;
  oidc_context: Record<string, unknown>;
  client: Record<string, unknown>;
  request_url: string;
  session_id: string;
}

interface WireConsentRequest {
  challenge: string;
  requested_scope: string[];
  requested_access_token_audience: string[];
  skip: boolean;
  subject: string;
  oidc_context: Record<string, unknown>;
  client: Record<string, unknown>;
  request_url: string;
  login_challenge: string;
  login_session_id: string;
  acr: string;
  amr: string[];
  context: Record<string, unknown>;
}

interface WireConsentSession {
  consent_request: WireConsentRequest;
  grant_scope: string[];
  grant_access_token_audience: string[];
  session: { access_token: Record<string, unknown>; id_token: Record<string, unknown> };
  remember: boolean;
  remember_for: number;
  handled_at: string;
}

function getLogin(challenge: string): Promise<HttpResponse<WireLoginRequest>> {
  return app.admin.get<WireLoginRequest>(`/oauth2/auth/requests/login?login_challenge=${encodeURIComponent(challenge)}`);
}

function getConsent(challenge: string): Promise<HttpResponse<WireConsentRequest>> {
  return app.admin.get<WireConsentRequest>(`/oauth2/auth/requests/consent?consent_challenge=${encodeURIComponent(challenge)}`);
}

function put(
  step: 'login' | 'consent',
  decision: 'accept' | 'reject',
  challenge: string,
  json?: unknown,
): Promise<HttpResponse<{ redirect_to: string }>> {
  return app.admin.put<{ redirect_to: string }>(
    `/oauth2/auth/requests/${step}/${decision}?${step}_challenge=${encodeURIComponent(challenge)}`,
    json === undefined ? {} : { json },
  );
}

/** A browser at the consent app: authorize, login accepted (with `login`), back; returns the consent location. */
async function untilConsent(
  browser: OAuthBrowser,
  extra: Record<string, string> = {},
  login: Record<string, unknown> = { subject: 'alice' },
) {
  const loginLocation = await browser.authorize(query(extra));
  return browser.follow(await browser.acceptLogin(loginLocation, login));
}

function randomSubject(): string {
  return `user-${randomBytes(6).toString('hex')}`;
}

describe('login requests', () => {
  it('sends the browser to the login app with a fresh challenge and a CSRF cookie (HttpOnly, Path=/, SameSite, Secure for https)', async () => {
    const browser = new OAuthBrowser(app);
    const location = await browser.authorize(query());
    expect(location.startsWith(`${LOGIN_APP}?login_challenge=`)).toBe(true);
    expect(challengeOf(location, 'login')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const csrf = browser.jar.get('oauth2_authentication_csrf');
    expect(csrf?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(csrf?.attributes).toMatchObject({ httponly: true, path: '/', samesite: 'Lax', secure: true });
    expect(Number(csrf?.attributes['max-age'])).toBe(1800);
  });

  it('GET answers the loginRequest (by login_challenge or challenge), with the client but never its secret', async () => {
    const browser = new OAuthBrowser(app);
    const location = await browser.authorize(
      query({ login_hint: 'alice@example.com', ui_locales: 'de en', acr_values: 'urn:mfa urn:pwd', display: 'popup' }),
    );
    const challenge = challengeOf(location, 'login');
    const response = await getLogin(challenge);
    expect(response.status, response.text).toBe(200);
    const body = response.body;
    expect(body).toMatchObject({
      challenge,
      requested_scope: ['openid', 'offline_access'],
      requested_access_token_audience: [],
      skip: false,
      subject: '',
      oidc_context: { login_hint: 'alice@example.com', ui_locales: ['de', 'en'], acr_values: ['urn:mfa', 'urn:pwd'], display: 'popup' },
    });
    // Nothing the request did not carry (Hydra's omitempty).
    expect(Object.keys(body.oidc_context).sort()).toEqual(['acr_values', 'display', 'login_hint', 'ui_locales']);
    expect(body.client['client_id']).toBe(client.client_id);
    expect(body.client).not.toHaveProperty('client_secret');
    expect(body.request_url.startsWith(`${ISSUER}/oauth2/auth?`)).toBe(true);
    expect(body.request_url).not.toContain('login_verifier');
    expect(body.session_id).toMatch(UUID);

    const alias = await app.admin.get<WireLoginRequest>(`/oauth2/auth/requests/login?challenge=${encodeURIComponent(challenge)}`);
    expect(alias.status).toBe(200);
    expect(alias.body.challenge).toBe(challenge);
  });

  it('stores challenge, CSRF value and verifier only as digests', async () => {
    const browser = new OAuthBrowser(app);
    const location = await browser.authorize(query());
    const challenge = challengeOf(location, 'login');
    const redirect = await browser.acceptLogin(location);
    const verifier = queryParam(redirect, 'login_verifier')!;
    const csrf = browser.jar.get('oauth2_authentication_csrf')!.value;
    const dump = JSON.stringify(await queryDatabase(app.databaseUrl, 'SELECT * FROM oauth2_login_requests'));
    for (const secret of [challenge, verifier, csrf]) expect(dump).not.toContain(secret);
  });

  it('400 without a challenge, or with the challenge twice', async () => {
    expectOAuthError(await app.admin.get('/oauth2/auth/requests/login'), 400, 'invalid_request');
    expectOAuthError(await app.admin.get('/oauth2/auth/requests/login?login_challenge='), 400, 'invalid_request');
    expectOAuthError(await app.admin.get('/oauth2/auth/requests/login?login_challenge=a&login_challenge=b'), 400, 'invalid_request');
    expectOAuthError(await app.admin.put('/oauth2/auth/requests/login/accept', { json: { subject: 'alice' } }), 400, 'invalid_request');
  });

  it('S16: an unknown, bit-flipped, consent or verifier value used as login challenge is 404', async () => {
    const browser = new OAuthBrowser(app);
    const loginLocation = await browser.authorize(query());
    const loginChallenge = challengeOf(loginLocation, 'login');
    const redirect = await browser.acceptLogin(loginLocation);
    const verifier = queryParam(redirect, 'login_verifier')!;
    const consentChallenge = challengeOf(await browser.follow(redirect), 'consent');
    const flipped = `${loginChallenge.slice(0, -1)}${loginChallenge.endsWith('A') ? 'B' : 'A'}`;
    for (const value of ['unknown', flipped, consentChallenge, verifier]) {
      expectOAuthError(await getLogin(value), 404, 'not_found');
      expectOAuthError(await put('login', 'accept', value, { subject: 'alice' }), 404, 'not_found');
    }
    expectOAuthError(await getConsent(loginChallenge), 404, 'not_found');
    expectOAuthError(await put('consent', 'accept', verifier, {}), 404, 'not_found');
  });

  it('accept answers redirect_to = request_url + login_verifier; a second accept or a reject after it is 409', async () => {
    const browser = new OAuthBrowser(app);
    const location = await browser.authorize(query());
    const challenge = challengeOf(location, 'login');
    const { body: request } = await getLogin(challenge);
    const accepted = await put('login', 'accept', challenge, { subject: 'alice' });
    expect(accepted.status, accepted.text).toBe(200);
    expect(Object.keys(accepted.body)).toEqual(['redirect_to']);
    expect(accepted.body.redirect_to.startsWith(`${request.request_url}&login_verifier=`)).toBe(true);
    expect(queryParam(accepted.body.redirect_to, 'login_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    expectOAuthError(await put('login', 'accept', challenge, { subject: 'alice' }), 409, 'conflict');
    expectOAuthError(await put('login', 'reject', challenge, {}), 409, 'conflict');
    // Answered but not yet redeemed by the browser: still readable.
    expect((await getLogin(challenge)).status).toBe(200);
  });

  it('S13: once the browser redeemed the verifier, GET is 409', async () => {
    const browser = new OAuthBrowser(app);
    const location = await browser.authorize(query());
    const challenge = challengeOf(location, 'login');
    await browser.follow(await browser.acceptLogin(location));
    expectOAuthError(await getLogin(challenge), 409, 'conflict');
  });

  it('refuses bad accept bodies with 400 and changes nothing', async () => {
    const browser = new OAuthBrowser(app);
    const challenge = challengeOf(await browser.authorize(query()), 'login');
    const bad: unknown[] = [
      {},
      { subject: '' },
      { subject: 'alice', unknown_field: true },
      { subject: 'alice', remember: 'yes' },
      { subject: 'alice', remember_for: -1 },
      { subject: 'alice', remember_for: 1.5 },
      { subject: 'alice', context: 'text' },
      { subject: 'alice', amr: 'pwd' },
      { subject: 'x'.repeat(256) },
      [],
    ];
    for (const body of bad) expectOAuthError(await put('login', 'accept', challenge, body), 400, 'invalid_request');
    const malformed = await app.admin.put(`/oauth2/auth/requests/login/accept?login_challenge=${challenge}`, {
      rawBody: '{"subject":',
      headers: { 'content-type': 'application/json' },
    });
    expectOAuthError(malformed, 400, 'invalid_request');
    const empty = await app.admin.put(`/oauth2/auth/requests/login/accept?login_challenge=${challenge}`, {
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    expectOAuthError(empty, 400, 'invalid_request');
    expect((await put('login', 'accept', challenge, { subject: 'alice' })).status).toBe(200);
  });

  it('refuses reject bodies that could not travel in a redirect, or with a non-error status', async () => {
    const browser = new OAuthBrowser(app);
    const challenge = challengeOf(await browser.authorize(query()), 'login');
    for (const body of [{ error: 'a"b' }, { error_description: 'back\\slash' }, { status_code: 200 }, { status_code: 600 }, { nope: 1 }]) {
      expectOAuthError(await put('login', 'reject', challenge, body), 400, 'invalid_request');
    }
  });

  it("a rejected login reaches the client as the login app's error (access_denied by default)", async () => {
    const browser = new OAuthBrowser(app);
    const location = await browser.authorize(query());
    const response = await browser.get(await browser.rejectLogin(location));
    expect(authorizeError(response)).toBe('access_denied');

    const custom = new OAuthBrowser(app);
    const customLocation = await custom.authorize(query());
    const redirect = await custom.rejectLogin(customLocation, {
      error: 'login_denied',
      error_description: 'The account is locked.',
      error_hint: 'Contact support.',
      status_code: 403,
    });
    const customResponse = await custom.get(redirect);
    expect(customResponse.status).toBe(302);
    const params = responseParams(customResponse.headers.get('location')!);
    expect(params.get('error')).toBe('login_denied');
    expect(params.get('error_description')).toBe('The account is locked.');
    expect(params.get('state')).toBe('state-0123456789');
  });

  it('S14: a login verifier works once; the replay gets access_denied', async () => {
    const browser = new OAuthBrowser(app);
    const redirect = await browser.acceptLogin(await browser.authorize(query()));
    expect((await browser.get(redirect)).status).toBe(302);
    expect(authorizeError(await browser.get(redirect))).toBe('access_denied');
  });

  it('S15: a login verifier brought by another browser (no or another CSRF cookie) is request_forbidden, and is spent', async () => {
    const victim = new OAuthBrowser(app);
    const redirect = await victim.acceptLogin(await victim.authorize(query()));
    const attacker = new OAuthBrowser(app);
    await attacker.authorize(query());
    expect(authorizeError(await attacker.get(redirect))).toBe('request_forbidden');
    const bare = new OAuthBrowser(app);
    expect(authorizeError(await bare.get(redirect))).toBe('access_denied');
    expect(authorizeError(await victim.get(redirect))).toBe('access_denied');
  });

  it('a login verifier only completes the authorization request it was issued for', async () => {
    const browser = new OAuthBrowser(app);
    const redirect = await browser.acceptLogin(await browser.authorize(query()));
    const verifier = queryParam(redirect, 'login_verifier')!;
    const other = new URLSearchParams({ ...query({ scope: 'openid' }), login_verifier: verifier });
    expect(authorizeError(await browser.get(`/oauth2/auth?${other.toString()}`))).toBe('invalid_request');
  });
});

describe('consent requests', () => {
  it('GET answers the consentRequest, carrying what login accept said and the oidc_context', async () => {
    const browser = new OAuthBrowser(app);
    const loginLocation = await browser.authorize(query({ login_hint: 'alice@example.com', display: 'page' }));
    const loginChallenge = challengeOf(loginLocation, 'login');
    const { body: login } = await getLogin(loginChallenge);
    const consentLocation = await browser.follow(
      await browser.acceptLogin(loginLocation, { subject: 'alice', acr: 'urn:acr:mfa', amr: ['pwd', 'otp'], context: { tenant: 'acme' } }),
    );
    expect(consentLocation.startsWith(`${CONSENT_APP}?consent_challenge=`)).toBe(true);
    expect(browser.jar.get('oauth2_consent_csrf')?.attributes).toMatchObject({ httponly: true, path: '/' });
    expect(browser.jar.get('oauth2_authentication_csrf')).toBeUndefined();
    const challenge = challengeOf(consentLocation, 'consent');
    const response = await getConsent(challenge);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      challenge,
      requested_scope: ['openid', 'offline_access'],
      requested_access_token_audience: [],
      skip: false,
      subject: 'alice',
      request_url: login.request_url,
      login_challenge: loginChallenge,
      login_session_id: login.session_id,
      acr: 'urn:acr:mfa',
      amr: ['pwd', 'otp'],
      context: { tenant: 'acme' },
    });
    expect(response.body.oidc_context).toEqual({ login_hint: 'alice@example.com', display: 'page' });
    expect(response.body.client['client_id']).toBe(client.client_id);
    expect(response.body.client).not.toHaveProperty('client_secret');
  });

  it('404 unknown, 400 missing challenge', async () => {
    expectOAuthError(await getConsent('unknown'), 404, 'not_found');
    expectOAuthError(await app.admin.get('/oauth2/auth/requests/consent'), 400, 'invalid_request');
  });

  it('accept answers redirect_to = request_url + consent_verifier; the client gets its code', async () => {
    const browser = new OAuthBrowser(app);
    const consentLocation = await untilConsent(browser);
    const challenge = challengeOf(consentLocation, 'consent');
    const accepted = await put('consent', 'accept', challenge, { grant_scope: ['openid'] });
    expect(accepted.status, accepted.text).toBe(200);
    expect(Object.keys(accepted.body)).toEqual(['redirect_to']);
    expect(queryParam(accepted.body.redirect_to, 'consent_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const done = await browser.get(accepted.body.redirect_to);
    expect(done.status).toBe(302);
    expect(responseParams(done.headers.get('location')!).get('code')).not.toBeNull();
    expect(browser.jar.get('oauth2_consent_csrf')).toBeUndefined();
  });

  it('a second accept before the browser returns replaces the first (and its verifier)', async () => {
    const browser = new OAuthBrowser(app);
    const challenge = challengeOf(await untilConsent(browser), 'consent');
    const first = await put('consent', 'accept', challenge, { grant_scope: ['openid'] });
    const second = await put('consent', 'accept', challenge, { grant_scope: ['openid', 'offline_access'] });
    expect(second.status).toBe(200);
    expect(authorizeError(await browser.get(first.body.redirect_to))).toBe('access_denied');
    const done = await browser.get(second.body.redirect_to);
    expect(responseParams(done.headers.get('location')!).get('code')).not.toBeNull();
  });

  it('S13: once the browser redeemed the consent verifier, GET and accept are 409', async () => {
    const browser = new OAuthBrowser(app);
    const challenge = challengeOf(await untilConsent(browser), 'consent');
    await browser.follow(await browser.acceptConsent(`${CONSENT_APP}?consent_challenge=${challenge}`));
    expectOAuthError(await getConsent(challenge), 409, 'conflict');
    expectOAuthError(await put('consent', 'accept', challenge, {}), 409, 'conflict');
    expectOAuthError(await put('consent', 'reject', challenge, {}), 409, 'conflict');
  });

  it('refuses bad accept bodies with 400', async () => {
    const browser = new OAuthBrowser(app);
    const challenge = challengeOf(await untilConsent(browser), 'consent');
    for (const body of [
      { grant_scope: 'openid' },
      { grant_scope: [1] },
      { session: { access_token: {}, refresh_token: {} } },
      { session: { id_token: 'claims' } },
      { remember_for: -5 },
      { handled_at: 'yesterday' },
      { other: true },
    ]) {
      expectOAuthError(await put('consent', 'accept', challenge, body), 400, 'invalid_request');
    }
    expect((await put('consent', 'accept', challenge, { handled_at: '2020-01-01T00:00:00Z' })).status).toBe(200);
  });

  it('a body-less accept grants nothing but is accepted (the body is optional)', async () => {
    const browser = new OAuthBrowser(app);
    const challenge = challengeOf(await untilConsent(browser), 'consent');
    expect((await put('consent', 'accept', challenge)).status).toBe(200);
  });

  it("a rejected consent reaches the client as the consent app's error", async () => {
    const browser = new OAuthBrowser(app);
    const consentLocation = await untilConsent(browser);
    const response = await browser.get(await browser.rejectConsent(consentLocation, { error: 'consent_denied', error_description: 'No.' }));
    expect(response.status).toBe(302);
    const params = responseParams(response.headers.get('location')!);
    expect(params.get('error')).toBe('consent_denied');
    expect(params.get('error_description')).toBe('No.');
  });

  it('S14/S15: a consent verifier works once, and only in the browser that started it', async () => {
    const browser = new OAuthBrowser(app);
    const redirect = await browser.acceptConsent(await untilConsent(browser));
    const attacker = new OAuthBrowser(app);
    expect(authorizeError(await attacker.get(redirect))).toBe('request_forbidden');
    expect(authorizeError(await browser.get(redirect))).toBe('access_denied');
  });

  it('stores challenge, CSRF value and verifier only as digests', async () => {
    const browser = new OAuthBrowser(app);
    const consentLocation = await untilConsent(browser);
    const challenge = challengeOf(consentLocation, 'consent');
    const verifier = queryParam(await browser.acceptConsent(consentLocation), 'consent_verifier')!;
    const csrf = browser.jar.get('oauth2_consent_csrf')!.value;
    const dump = JSON.stringify(await queryDatabase(app.databaseUrl, 'SELECT * FROM oauth2_consent_requests'));
    for (const secret of [challenge, verifier, csrf]) expect(dump).not.toContain(secret);
  });
});

describe('S17: requests past TTL_LOGIN_CONSENT_REQUEST', () => {
  it('an expired login request is 404 for the login app, and its verifier is request_unauthorized', async () => {
    const browser = new OAuthBrowser(app);
    const location = await browser.authorize(query());
    const challenge = challengeOf(location, 'login');
    const redirect = await browser.acceptLogin(location);
    await ageLoginRequests(app, '31 minutes');
    expectOAuthError(await getLogin(challenge), 404, 'not_found');
    expectOAuthError(await put('login', 'reject', challenge, {}), 404, 'not_found');
    const late = await browser.get(redirect);
    expect(late.status).toBe(401);
    expect(authorizeError(late)).toBe('request_unauthorized');
  });

  it('an expired consent request is 404 for the consent app, and its verifier is request_unauthorized', async () => {
    const browser = new OAuthBrowser(app);
    const consentLocation = await untilConsent(browser);
    const challenge = challengeOf(consentLocation, 'consent');
    const redirect = await browser.acceptConsent(consentLocation);
    await ageConsentRequests(app, '31 minutes', { was_used: false });
    expectOAuthError(await getConsent(challenge), 404, 'not_found');
    const late = await browser.get(redirect);
    expect(late.status).toBe(401);
    expect(authorizeError(late)).toBe('request_unauthorized');
  });

  it('an expired request that was never answered cannot be accepted (404), login or consent', async () => {
    const loginChallenge = challengeOf(await new OAuthBrowser(app).authorize(query()), 'login');
    const consentChallenge = challengeOf(await untilConsent(new OAuthBrowser(app)), 'consent');
    await ageLoginRequests(app, '31 minutes');
    await ageConsentRequests(app, '31 minutes', { was_used: false });
    expectOAuthError(await put('login', 'accept', loginChallenge, { subject: 'alice' }), 404, 'not_found');
    expectOAuthError(await put('consent', 'accept', consentChallenge, { grant_scope: ['openid'] }), 404, 'not_found');
  });
});

describe('remembered logins', () => {
  it('remember + remember_for: a session cookie with that Max-Age; the next request is a skip for the same subject', async () => {
    const subject = randomSubject();
    const browser = new OAuthBrowser(app);
    const consent = await untilConsent(browser, {}, { subject, remember: true, remember_for: 3600 });
    const cookie = browser.jar.get('oauth2_authentication_session');
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie?.attributes).toMatchObject({ httponly: true, path: '/', 'max-age': '3600' });
    const { body: consentRequest } = await getConsent(challengeOf(consent, 'consent'));
    // The cookie is not the sid that relying parties see in ID tokens.
    expect(cookie?.value).not.toBe(consentRequest.login_session_id);

    const again = await browser.authorize(query());
    const { body: login } = await getLogin(challengeOf(again, 'login'));
    expect(login).toMatchObject({ skip: true, subject, session_id: consentRequest.login_session_id });
    expectOAuthError(await put('login', 'accept', challengeOf(again, 'login'), { subject: 'mallory' }), 400, 'invalid_request');
    const next = await browser.follow(await browser.acceptLogin(again, { subject }));
    const { body: nextConsent } = await getConsent(challengeOf(next, 'consent'));
    expect(nextConsent.login_session_id).toBe(consentRequest.login_session_id);
  });

  it('remember_for 0 is a browser-session cookie (no Max-Age, no Expires) and no server-side window', async () => {
    const subject = randomSubject();
    const browser = new OAuthBrowser(app);
    await untilConsent(browser, {}, { subject, remember: true });
    const cookie = browser.jar.get('oauth2_authentication_session');
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie?.attributes['max-age']).toBeUndefined();
    expect(cookie?.attributes['expires']).toBeUndefined();
    // Old as it may be, the session lasts as long as the browser keeps the cookie.
    await ageAuthentications(app, '400 days', { subject: subject });
    expect((await getLogin(challengeOf(await browser.authorize(query()), 'login'))).body).toMatchObject({ skip: true, subject });
  });

  it('prompt=login asks again; remember=false then forgets the session', async () => {
    const subject = randomSubject();
    const browser = new OAuthBrowser(app);
    await untilConsent(browser, {}, { subject, remember: true, remember_for: 3600 });
    const forced = await browser.authorize(query({ prompt: 'login' }));
    expect((await getLogin(challengeOf(forced, 'login'))).body.skip).toBe(false);
    await browser.follow(await browser.acceptLogin(forced, { subject, remember: false }));
    expect(browser.jar.get('oauth2_authentication_session')).toBeUndefined();
    expect((await getLogin(challengeOf(await browser.authorize(query()), 'login'))).body.skip).toBe(false);
  });

  it('max_age shorter than the session age asks again', async () => {
    const browser = new OAuthBrowser(app);
    await untilConsent(browser, {}, { subject: randomSubject(), remember: true, remember_for: 3600 });
    await ageAuthentications(app, '10 minutes');
    expect((await getLogin(challengeOf(await browser.authorize(query({ max_age: '60' })), 'login'))).body.skip).toBe(false);
    expect((await getLogin(challengeOf(await browser.authorize(query({ max_age: '3600' })), 'login'))).body.skip).toBe(true);
  });

  it('prompt=none with a session older than max_age is login_required at the client, with no login request', async () => {
    const subject = randomSubject();
    const browser = new OAuthBrowser(app);
    await untilConsent(browser, {}, { subject, remember: true, remember_for: 3600 });
    await ageAuthentications(app, '10 minutes', { subject: subject });
    const response = await browser.get(`/oauth2/auth?${new URLSearchParams(query({ prompt: 'none', max_age: '60' })).toString()}`);
    expect(response.status).toBe(302);
    const location = response.headers.get('location')!;
    expect(location.startsWith(client.redirect_uris[0]!)).toBe(true);
    expect(responseParams(location).get('error')).toBe('login_required');
    expect(responseParams(location).get('state')).toBe('state-0123456789');
    expect(browser.jar.get('oauth2_authentication_csrf')).toBeUndefined();
  });

  it('prompt=select_account is accepted and, as in Hydra v1.5, leaves the skip decision alone (the app reads it in request_url)', async () => {
    const subject = randomSubject();
    const browser = new OAuthBrowser(app);
    await untilConsent(browser, {}, { subject, remember: true, remember_for: 3600 });
    const { body } = await getLogin(challengeOf(await browser.authorize(query({ prompt: 'select_account' })), 'login'));
    expect(body).toMatchObject({ skip: true, subject });
    expect(new URL(body.request_url).searchParams.get('prompt')).toBe('select_account');
  });

  it('prompt=none without a session is login_required at the client', async () => {
    const browser = new OAuthBrowser(app);
    expect(authorizeError(await browser.get(`/oauth2/auth?${new URLSearchParams(query({ prompt: 'none' })).toString()}`))).toBe(
      'login_required',
    );
  });

  it('a remembered session past its window no longer skips', async () => {
    const browser = new OAuthBrowser(app);
    await untilConsent(browser, {}, { subject: randomSubject(), remember: true, remember_for: 3600 });
    await expireAuthentications(app, '1 second');
    expect((await getLogin(challengeOf(await browser.authorize(query()), 'login'))).body.skip).toBe(false);
  });
});

describe('remembered consents', () => {
  async function rememberedConsent(subject: string, consent: Record<string, unknown>): Promise<OAuthBrowser> {
    const browser = new OAuthBrowser(app);
    const consentLocation = await untilConsent(browser, {}, { subject, remember: true, remember_for: 3600 });
    await browser.follow(await browser.acceptConsent(consentLocation, consent));
    return browser;
  }

  async function nextConsentSkip(browser: OAuthBrowser, subject: string, extra: Record<string, string> = {}): Promise<boolean> {
    const login = await browser.authorize(query(extra));
    const consent = await browser.follow(await browser.acceptLogin(login, { subject }));
    return (await getConsent(challengeOf(consent, 'consent'))).body.skip;
  }

  it('a remembered consent covering the scopes makes the next consent a skip; prompt=consent asks anyway', async () => {
    const subject = randomSubject();
    const browser = await rememberedConsent(subject, { grant_scope: ['openid', 'offline_access'], remember: true });
    expect(await nextConsentSkip(browser, subject)).toBe(true);
    expect(await nextConsentSkip(browser, subject, { prompt: 'consent' })).toBe(false);
  });

  it('a consent that did not grant every requested scope, or was not remembered, does not skip', async () => {
    const subject = randomSubject();
    const partial = await rememberedConsent(subject, { grant_scope: ['openid'], remember: true });
    expect(await nextConsentSkip(partial, subject)).toBe(false);
    const other = randomSubject();
    const forgotten = await rememberedConsent(other, { grant_scope: ['openid', 'offline_access'], remember: false });
    expect(await nextConsentSkip(forgotten, other)).toBe(false);
  });

  it('remember_for 0 (the default) remembers the consent until it is revoked', async () => {
    const subject = randomSubject();
    const browser = await rememberedConsent(subject, { grant_scope: ['openid', 'offline_access'], remember: true });
    await ageConsentRequests(app, '5 years', { subject: subject });
    expect(await nextConsentSkip(browser, subject)).toBe(true);
    const sessions = await app.admin.get<WireConsentSession[]>(`/oauth2/auth/sessions/consent?subject=${subject}`);
    expect(sessions.body.map((session) => session.remember_for)).toEqual([0]);
  });

  it('a remembered consent past remember_for does not skip', async () => {
    const subject = randomSubject();
    const browser = await rememberedConsent(subject, { grant_scope: ['openid', 'offline_access'], remember: true, remember_for: 60 });
    await ageConsentRequests(app, '2 minutes', { subject: subject });
    expect(await nextConsentSkip(browser, subject)).toBe(false);
  });

  it('prompt=none with a remembered login and consent goes straight to the client; without the consent it is consent_required', async () => {
    const subject = randomSubject();
    const browser = await rememberedConsent(subject, { grant_scope: ['openid', 'offline_access'], remember: true });
    const loginLocation = await browser.authorize(query({ prompt: 'none' }));
    expect((await getLogin(challengeOf(loginLocation, 'login'))).body.skip).toBe(true);
    const consentLocation = await browser.follow(await browser.acceptLogin(loginLocation, { subject }));
    expect((await getConsent(challengeOf(consentLocation, 'consent'))).body.skip).toBe(true);

    const other = new OAuthBrowser(app);
    const otherSubject = randomSubject();
    await untilConsent(other, {}, { subject: otherSubject, remember: true, remember_for: 3600 });
    const none = await other.authorize(query({ prompt: 'none' }));
    const response = await other.get(await other.acceptLogin(none, { subject: otherSubject, remember_for: 7200 }));
    expect(authorizeError(response)).toBe('consent_required');
    // The login itself went through: its remembered session got the window the login app asked for.
    const [session] = await queryDatabase<{ moved: boolean }>(
      app.databaseUrl,
      "SELECT expires_at > now() + interval '90 minutes' AS moved FROM oauth2_authentication_sessions WHERE subject = $1",
      [otherSubject],
    );
    expect(session?.moved).toBe(true);
  });

  it('a public client with a plain-http redirect never skips consent', async () => {
    const publicClient = await registerClient(app, {
      token_endpoint_auth_method: 'none',
      redirect_uris: ['http://127.0.0.1:7777/cb', 'com.example.app:/cb'],
    });
    const subject = randomSubject();
    const browser = new OAuthBrowser(app);
    const native = query({ redirect_uri: 'com.example.app:/cb' }, publicClient);
    const pkce = { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' };
    const login = await browser.authorize({ ...native, ...pkce });
    const consent = await browser.follow(await browser.acceptLogin(login, { subject, remember: true, remember_for: 3600 }));
    await browser.follow(await browser.acceptConsent(consent, { grant_scope: ['openid', 'offline_access'], remember: true }));
    const again = await browser.authorize({ ...native, ...pkce });
    const next = await browser.follow(await browser.acceptLogin(again, { subject }));
    expect((await getConsent(challengeOf(next, 'consent'))).body.skip).toBe(false);
  });
});

describe('consent sessions', () => {
  async function grantFor(subject: string, forClient: RegisteredClient, remember = true): Promise<string> {
    const browser = new OAuthBrowser(app);
    const login = await browser.authorize(query({}, forClient));
    const consent = await browser.follow(await browser.acceptLogin(login, { subject }));
    const done = await browser.follow(
      await browser.acceptConsent(consent, {
        grant_scope: ['openid', 'offline_access'],
        grant_access_token_audience: [],
        remember,
        remember_for: 3600,
        session: { access_token: { tenant: 'acme' }, id_token: { email: 'a@example.com' } },
      }),
    );
    return responseParams(done).get('code')!;
  }

  it('GET lists remembered consent sessions (previousConsentSession), newest first, with Link pagination', async () => {
    const subject = randomSubject();
    const second = await registerClient(app);
    await grantFor(subject, client);
    await grantFor(subject, second);
    await grantFor(subject, client, false);

    const all = await app.admin.get<WireConsentSession[]>(`/oauth2/auth/sessions/consent?subject=${subject}`);
    expect(all.status, all.text).toBe(200);
    expect(all.headers.get('x-total-count')).toBe('2');
    expect(all.body.map((session) => session.consent_request.client['client_id'])).toEqual([second.client_id, client.client_id]);
    const [latest] = all.body;
    expect(latest).toMatchObject({
      grant_scope: ['openid', 'offline_access'],
      grant_access_token_audience: [],
      session: { access_token: { tenant: 'acme' }, id_token: { email: 'a@example.com' } },
      remember: true,
      remember_for: 3600,
      consent_request: { subject, skip: false, requested_scope: ['openid', 'offline_access'] },
    });
    expect(Date.parse(latest!.handled_at)).not.toBeNaN();
    expect(latest!.consent_request.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(latest!.consent_request.client).not.toHaveProperty('client_secret');

    const page = await app.admin.get<WireConsentSession[]>(`/oauth2/auth/sessions/consent?subject=${subject}&limit=1&offset=1`);
    expect(page.body).toHaveLength(1);
    expect(page.body[0]!.consent_request.client['client_id']).toBe(client.client_id);
    const link = page.headers.get('link')!;
    expect(link).toContain(`</oauth2/auth/sessions/consent?limit=1&offset=0&subject=${subject}>; rel="first"`);
    expect(link).toContain('rel="prev"');
    expect(link).toContain(`</oauth2/auth/sessions/consent?limit=1&offset=1&subject=${subject}>; rel="last"`);
  });

  it('an unknown subject has an empty list; a missing subject or bad limit is 400', async () => {
    const empty = await app.admin.get('/oauth2/auth/sessions/consent?subject=nobody-at-all');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
    expectOAuthError(await app.admin.get('/oauth2/auth/sessions/consent'), 400, 'invalid_request');
    expectOAuthError(await app.admin.get('/oauth2/auth/sessions/consent?subject=x&limit=abc'), 400, 'invalid_request');
  });

  async function redeem(code: string, forClient: RegisteredClient) {
    const response = await token(app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: forClient.redirect_uris[0]!,
      client_id: forClient.client_id,
      client_secret: forClient.client_secret!,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.refresh_token).toBeDefined();
    return response.body;
  }

  async function active(value: string): Promise<boolean> {
    const response = await app.admin.post<{ active: boolean }>('/oauth2/introspect', { form: { token: value } });
    expect(response.status, response.text).toBe(200);
    return response.body.active;
  }

  it("DELETE with client revokes that client's consents and every token they yielded; without client, all", async () => {
    const subject = randomSubject();
    const second = await registerClient(app);
    const first = await redeem(await grantFor(subject, client), client);
    const other = await redeem(await grantFor(subject, second), second);
    for (const value of [first.access_token, first.refresh_token!, other.access_token, other.refresh_token!]) {
      expect(await active(value)).toBe(true);
    }

    const deleted = await app.admin.delete(`/oauth2/auth/sessions/consent?subject=${subject}&client=${client.client_id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect(await active(first.access_token)).toBe(false);
    expect(await active(first.refresh_token!)).toBe(false);
    const refreshed = await token(app, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token!,
      client_id: client.client_id,
      client_secret: client.client_secret!,
    });
    expectOAuthError(refreshed, 400, 'invalid_grant');
    // The other client's consent and tokens are untouched.
    expect(await active(other.access_token)).toBe(true);
    expect(await active(other.refresh_token!)).toBe(true);
    const left = await app.admin.get<WireConsentSession[]>(`/oauth2/auth/sessions/consent?subject=${subject}`);
    expect(left.body.map((session) => session.consent_request.client['client_id'])).toEqual([second.client_id]);

    expect((await app.admin.delete(`/oauth2/auth/sessions/consent?subject=${subject}`)).status).toBe(204);
    expect((await app.admin.get(`/oauth2/auth/sessions/consent?subject=${subject}`)).body).toEqual([]);
    expect(await active(other.access_token)).toBe(false);
    expect(await active(other.refresh_token!)).toBe(false);
    expect((await app.admin.delete(`/oauth2/auth/sessions/consent?subject=${subject}`)).status).toBe(204);
    expectOAuthError(await app.admin.delete('/oauth2/auth/sessions/consent'), 400, 'invalid_request');
  });

  it('a revoked consent is no longer a skip', async () => {
    const subject = randomSubject();
    const browser = new OAuthBrowser(app);
    const consent = await untilConsent(browser, {}, { subject, remember: true, remember_for: 3600 });
    await browser.follow(await browser.acceptConsent(consent, { grant_scope: ['openid', 'offline_access'], remember: true }));
    const nextConsent = async (): Promise<boolean> => {
      const login = await browser.authorize(query());
      return (await getConsent(challengeOf(await browser.follow(await browser.acceptLogin(login, { subject })), 'consent'))).body.skip;
    };
    expect(await nextConsent()).toBe(true);
    expect((await app.admin.delete(`/oauth2/auth/sessions/consent?subject=${subject}&client=${client.client_id}`)).status).toBe(204);
    expect(await nextConsent()).toBe(false);
  });

  it('DELETE login sessions of a subject: the next request asks the login app again; tokens stay (Hydra)', async () => {
    const subject = randomSubject();
    const browser = new OAuthBrowser(app);
    const consent = await untilConsent(browser, {}, { subject, remember: true, remember_for: 3600 });
    const done = await browser.follow(await browser.acceptConsent(consent, { grant_scope: ['openid', 'offline_access'] }));
    const issued = await redeem(responseParams(done).get('code')!, client);
    expect((await getLogin(challengeOf(await browser.authorize(query()), 'login'))).body.skip).toBe(true);
    expect((await app.admin.delete(`/oauth2/auth/sessions/login?subject=${subject}`)).status).toBe(204);
    expect((await getLogin(challengeOf(await browser.authorize(query()), 'login'))).body.skip).toBe(false);
    expect(await active(issued.access_token)).toBe(true);
    expect(await active(issued.refresh_token!)).toBe(true);
    expectOAuthError(await app.admin.delete('/oauth2/auth/sessions/login'), 400, 'invalid_request');
  });

  it('a skip that lost its session meanwhile is login_required', async () => {
    const subject = randomSubject();
    const browser = new OAuthBrowser(app);
    await untilConsent(browser, {}, { subject, remember: true, remember_for: 3600 });
    const login = await browser.authorize(query());
    const redirect = await browser.acceptLogin(login, { subject });
    await app.admin.delete(`/oauth2/auth/sessions/login?subject=${subject}`);
    expect(authorizeError(await browser.get(redirect))).toBe('login_required');
  });
});

describe('the admin API boundary', () => {
  it('S18: every hand-off route needs the admin credential and is absent from the public listener', async () => {
    const routes: Array<['GET' | 'PUT' | 'DELETE', string]> = [
      ['GET', '/oauth2/auth/requests/login?login_challenge=x'],
      ['PUT', '/oauth2/auth/requests/login/accept?login_challenge=x'],
      ['PUT', '/oauth2/auth/requests/login/reject?login_challenge=x'],
      ['GET', '/oauth2/auth/requests/consent?consent_challenge=x'],
      ['PUT', '/oauth2/auth/requests/consent/accept?consent_challenge=x'],
      ['PUT', '/oauth2/auth/requests/consent/reject?consent_challenge=x'],
      ['GET', '/oauth2/auth/requests/logout?logout_challenge=x'],
      ['PUT', '/oauth2/auth/requests/logout/accept?logout_challenge=x'],
      ['PUT', '/oauth2/auth/requests/logout/reject?logout_challenge=x'],
      ['DELETE', '/oauth2/auth/sessions/login?subject=x'],
      ['GET', '/oauth2/auth/sessions/consent?subject=x'],
      ['DELETE', '/oauth2/auth/sessions/consent?subject=x'],
    ];
    const service = await registerClient(app, { grant_types: ['client_credentials'], response_types: [], scope: 'read' });
    const serviceToken = await token(app, {
      grant_type: 'client_credentials',
      scope: 'read',
      client_id: service.client_id,
      client_secret: service.client_secret!,
    });
    expect(serviceToken.status, serviceToken.text).toBe(200);
    const callers = [
      app.anonymousAdmin,
      app.anonymousAdmin.withToken('lk_admin_wrong_token_0123456789abcdef'),
      // An access token of this service, but without the admin scope.
      app.anonymousAdmin.withToken(serviceToken.body.access_token),
    ];
    for (const [method, path] of routes) {
      for (const caller of callers) expectOAuthError(await caller.request(method, path), 401, 'unauthorized');
      expectOAuthError(await app.public.request(method, path), 404, 'not_found');
    }
    expect((await app.admin.get('/admin/oauth2/auth/sessions/consent?subject=x')).status).toBe(200);
  });

  it('S18: a refused caller answers nothing: the request is still open for the login app', async () => {
    const browser = new OAuthBrowser(app);
    const challenge = challengeOf(await browser.authorize(query()), 'login');
    const path = `/oauth2/auth/requests/login/accept?login_challenge=${encodeURIComponent(challenge)}`;
    expectOAuthError(await app.anonymousAdmin.put(path, { json: { subject: 'mallory' } }), 401, 'unauthorized');
    expectOAuthError(await app.public.put(path, { json: { subject: 'mallory' } }), 404, 'not_found');
    expect((await put('login', 'accept', challenge, { subject: 'alice' })).status).toBe(200);
  });
});

describe('deleteExpired (for the janitor)', () => {
  it('removes finished flows and ended sessions, and keeps granted consents', async () => {
    const subject = randomSubject();
    const browser = new OAuthBrowser(app);
    const abandoned = new OAuthBrowser(app);
    await abandoned.authorize(query());
    const consent = await untilConsent(browser, {}, { subject, remember: true, remember_for: 60 });
    await browser.follow(await browser.acceptConsent(consent, { grant_scope: ['openid'], remember: true }));

    const flow = app.running.app.get(ConsentFlowService);
    const count = async (table: string): Promise<number> =>
      Number((await queryDatabase<{ n: string }>(app.databaseUrl, `SELECT count(*) AS n FROM ${table}`))[0]!.n);
    const granted = async (): Promise<number> =>
      Number(
        (
          await queryDatabase<{ n: string }>(app.databaseUrl, 'SELECT count(*) AS n FROM oauth2_consent_requests WHERE subject = $1', [
            subject,
          ])
        )[0]!.n,
      );
    expect(await flow.deleteExpired(new Date(Date.now() - 3_600_000))).toBe(0);
    expect(await count('oauth2_login_requests')).toBeGreaterThan(0);

    const removed = await flow.deleteExpired(new Date(Date.now() + 2 * 3_600_000));
    expect(removed).toBeGreaterThan(0);
    expect(await count('oauth2_login_requests')).toBe(0);
    expect(await count('oauth2_logout_requests')).toBe(0);
    expect(await granted()).toBe(1);
    const sessions = await queryDatabase(app.databaseUrl, 'SELECT id FROM oauth2_authentication_sessions WHERE subject = $1', [subject]);
    expect(sessions).toEqual([]);
  });
});
