import { randomBytes } from 'node:crypto';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID_TOKEN_SET } from '../../src/keys/key-sets.js';
import { KeysService } from '../../src/keys/keys.service.js';
import { bootApp, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import type { HttpResponse } from '../support/http.js';
import { OAuthBrowser, queryParam, registerClient, signInForIdToken, type RegisteredClient } from '../support/oauth-browser.js';
import { expectOAuthError } from '../support/oauth.js';
import { ageLogoutRequests } from '../support/time-travel.js';

const ISSUER = 'https://id.example';
const LOGOUT_APP = 'https://apps.example/logout';
const ERROR_PAGE = 'https://apps.example/error';
const LOGGED_OUT = 'https://apps.example/logged-out';
const CLIENT_LOGGED_OUT = 'https://client.example/logged-out';

let app: TestApp;
let client: RegisteredClient;

beforeAll(async () => {
  app = await bootApp({
    ISSUER_URL: ISSUER,
    URLS_LOGIN: 'https://apps.example/login',
    URLS_CONSENT: 'https://apps.example/consent',
    URLS_LOGOUT: LOGOUT_APP,
    URLS_ERROR: ERROR_PAGE,
    URLS_POST_LOGOUT_REDIRECT: LOGGED_OUT,
  });
  client = await registerClient(app, { post_logout_redirect_uris: [CLIENT_LOGGED_OUT] });
});

afterAll(async () => {
  await app?.close();
});

interface Session {
  readonly browser: OAuthBrowser;
  readonly subject: string;
  readonly idToken: string;
  readonly sid: string;
}

/** A browser with a remembered login at `client`, and the ID token the client got. */
async function loggedIn(remember = true): Promise<Session> {
  const subject = `user-${randomBytes(6).toString('hex')}`;
  const browser = new OAuthBrowser(app);
  const idToken = await signInForIdToken(app, browser, client, subject, { remember, nonce: 'nonce-0123456789' });
  const sid = decodeJwt(idToken)['sid'];
  expect(typeof sid).toBe('string');
  return { browser, subject, idToken, sid: sid as string };
}

/** An ID token signed with the service's own key, with the given claims. */
async function signedHint(claims: Record<string, unknown>): Promise<string> {
  const key = await app.running.app.get(KeysService).signingKey(ID_TOKEN_SET);
  return new SignJWT({ iss: ISSUER, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 60, ...claims })
    .setProtectedHeader({ alg: key.alg, kid: key.kid })
    .sign(key.key);
}

function logoutPath(parameters: Record<string, string>): string {
  return `/oauth2/sessions/logout?${new URLSearchParams(parameters).toString()}`;
}

function locationOf(response: HttpResponse): string {
  expect(response.status, response.text).toBe(302);
  return response.headers.get('location')!;
}

/** The error of a logout that went to URLS_ERROR, or null when it went elsewhere. */
function errorOf(response: HttpResponse): string | null {
  const location = locationOf(response);
  return location.startsWith(`${ERROR_PAGE}?`) ? new URL(location).searchParams.get('error') : null;
}

function challengeOf(location: string): string {
  expect(location.startsWith(`${LOGOUT_APP}?logout_challenge=`), location).toBe(true);
  return queryParam(location, 'logout_challenge')!;
}

function getLogout(challenge: string): Promise<HttpResponse<Record<string, unknown>>> {
  return app.admin.get<Record<string, unknown>>(`/oauth2/auth/requests/logout?logout_challenge=${encodeURIComponent(challenge)}`);
}

function acceptLogout(challenge: string): Promise<HttpResponse<{ redirect_to: string }>> {
  return app.admin.put<{ redirect_to: string }>(`/oauth2/auth/requests/logout/accept?logout_challenge=${encodeURIComponent(challenge)}`);
}

async function loginSkips(browser: OAuthBrowser): Promise<boolean> {
  const location = await browser.authorize({
    client_id: client.client_id,
    response_type: 'code',
    redirect_uri: client.redirect_uris[0]!,
    scope: 'openid',
    state: 'state-0123456789',
  });
  const challenge = queryParam(location, 'login_challenge')!;
  const response = await app.admin.get<{ skip: boolean }>(`/oauth2/auth/requests/login?login_challenge=${encodeURIComponent(challenge)}`);
  return response.body.skip;
}

describe('OP-initiated logout (no id_token_hint)', () => {
  it('without a session goes straight to URLS_POST_LOGOUT_REDIRECT', async () => {
    const response = await app.public.get('/oauth2/sessions/logout');
    expect(locationOf(response)).toBe(LOGGED_OUT);
  });

  it('asks the logout app, then ends the session and clears its cookie', async () => {
    const { browser, subject, sid } = await loggedIn();
    const challenge = challengeOf(await browser.follow('/oauth2/sessions/logout'));
    const request = await getLogout(challenge);
    expect(request.status, request.text).toBe(200);
    expect(request.body).toEqual({ subject, sid, request_url: `${ISSUER}/oauth2/sessions/logout`, rp_initiated: false });

    const accepted = await acceptLogout(challenge);
    expect(accepted.status, accepted.text).toBe(200);
    expect(Object.keys(accepted.body)).toEqual(['redirect_to']);
    expect(accepted.body.redirect_to.startsWith(`${ISSUER}/oauth2/sessions/logout?logout_verifier=`)).toBe(true);

    const done = await browser.get(accepted.body.redirect_to);
    expect(locationOf(done)).toBe(LOGGED_OUT);
    expect(done.headers.get('cache-control')).toBe('no-store');
    expect(done.headers.getSetCookie().some((line) => line.startsWith('oauth2_authentication_session=;'))).toBe(true);
    expect(browser.jar.get('oauth2_authentication_session')).toBeUndefined();
    expect(await queryDatabase(app.databaseUrl, 'SELECT id FROM oauth2_authentication_sessions WHERE id = $1', [sid])).toEqual([]);
    expect(await loginSkips(browser)).toBe(false);
  });

  it('a logout verifier works once; the replay goes to the error page with access_denied', async () => {
    const { browser } = await loggedIn();
    const challenge = challengeOf(await browser.follow('/oauth2/sessions/logout'));
    const { body } = await acceptLogout(challenge);
    expect(locationOf(await browser.get(body.redirect_to))).toBe(LOGGED_OUT);
    expect(errorOf(await browser.get(body.redirect_to))).toBe('access_denied');
  });

  it('ends nothing when the browser holds another session by the time it comes back', async () => {
    const first = await loggedIn();
    const challenge = challengeOf(await first.browser.follow('/oauth2/sessions/logout'));
    const { body } = await acceptLogout(challenge);
    const other = await loggedIn();
    const response = await other.browser.get(body.redirect_to);
    expect(locationOf(response)).toBe(LOGGED_OUT);
    expect(await loginSkips(other.browser)).toBe(true);
    expect(await loginSkips(first.browser)).toBe(true);
  });

  it('S43: state or post_logout_redirect_uri without id_token_hint is refused, never redirected to', async () => {
    const { browser } = await loggedIn();
    const refused: Record<string, string>[] = [
      { post_logout_redirect_uri: CLIENT_LOGGED_OUT },
      { state: 'abc' },
      { post_logout_redirect_uri: 'https://evil.example/' },
    ];
    for (const parameters of refused) {
      const response = await browser.get(logoutPath(parameters));
      expect(errorOf(response)).toBe('invalid_request');
    }
    expect(await loginSkips(browser)).toBe(true);
  });

  it('a repeated parameter is invalid_request', async () => {
    expect(errorOf(await app.public.get('/oauth2/sessions/logout?state=a&state=b'))).toBe('invalid_request');
  });
});

describe('RP-initiated logout (id_token_hint)', () => {
  it('ends the hinted session and returns to the registered post_logout_redirect_uri with state', async () => {
    const { browser, subject, idToken, sid } = await loggedIn();
    const start = await browser.get(logoutPath({ id_token_hint: idToken, post_logout_redirect_uri: CLIENT_LOGGED_OUT, state: 'st-1' }));
    const challenge = challengeOf(locationOf(start));
    const request = await getLogout(challenge);
    expect(request.body).toMatchObject({ subject, sid, rp_initiated: true });
    const { body } = await acceptLogout(challenge);
    const done = await browser.get(body.redirect_to);
    expect(locationOf(done)).toBe(`${CLIENT_LOGGED_OUT}?state=st-1`);
    expect(await loginSkips(browser)).toBe(false);
  });

  it("a victim's id_token_hint used from another browser ends nothing of the victim's session", async () => {
    const victim = await loggedIn();
    const attacker = await loggedIn();
    const bare = new OAuthBrowser(app);
    for (const browser of [attacker.browser, bare]) {
      const response = await browser.get(logoutPath({ id_token_hint: victim.idToken, post_logout_redirect_uri: CLIENT_LOGGED_OUT }));
      // No logout request for the logout app: there is nothing of this browser's to end under that sid.
      expect(locationOf(response)).toBe(CLIENT_LOGGED_OUT);
    }
    expect(await loginSkips(victim.browser)).toBe(true);
    expect(await loginSkips(attacker.browser)).toBe(true);
  });

  it("the victim's own accepted logout, completed from another browser, ends nothing", async () => {
    const victim = await loggedIn();
    const attacker = await loggedIn();
    const challenge = challengeOf(locationOf(await victim.browser.get(logoutPath({ id_token_hint: victim.idToken }))));
    const { body } = await acceptLogout(challenge);
    expect(locationOf(await attacker.browser.get(body.redirect_to))).toBe(LOGGED_OUT);
    expect(await loginSkips(victim.browser)).toBe(true);
    expect(await loginSkips(attacker.browser)).toBe(true);
  });

  it('S43: a post_logout_redirect_uri that is not exactly registered for the client of the hint is refused', async () => {
    const { browser, idToken } = await loggedIn();
    const otherBye = 'https://other.example/logged-out';
    await registerClient(app, { redirect_uris: ['https://other.example/cb'], post_logout_redirect_uris: [otherBye] });
    for (const uri of [`${CLIENT_LOGGED_OUT}/`, `${CLIENT_LOGGED_OUT}?x=1`, 'https://evil.example/logged-out', otherBye]) {
      const response = await browser.get(logoutPath({ id_token_hint: idToken, post_logout_redirect_uri: uri }));
      expect(errorOf(response)).toBe('invalid_request');
      expect(response.headers.get('location')!.startsWith(uri)).toBe(false);
    }
    expect(await loginSkips(browser)).toBe(true);
  });

  it('when the hinted session is gone already, goes straight to the redirect', async () => {
    const { browser, idToken, subject } = await loggedIn();
    await app.admin.delete(`/oauth2/auth/sessions/login?subject=${subject}`);
    const response = await browser.get(logoutPath({ id_token_hint: idToken, post_logout_redirect_uri: CLIENT_LOGGED_OUT, state: 's' }));
    expect(locationOf(response)).toBe(`${CLIENT_LOGGED_OUT}?state=s`);
  });

  it('a session that was never remembered has nothing to end', async () => {
    const { browser, idToken } = await loggedIn(false);
    expect(locationOf(await browser.get(logoutPath({ id_token_hint: idToken })))).toBe(LOGGED_OUT);
  });

  it('refuses a hint that is not our ID token, has no sid, or names an unknown client', async () => {
    const { sid, subject } = await loggedIn();
    const forged = await new SignJWT({ iss: ISSUER, sub: subject, aud: client.client_id, sid })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(randomBytes(32));
    const cases = [
      'not-a-jwt',
      forged,
      await signedHint({ sub: subject, aud: client.client_id }),
      await signedHint({ sub: subject, aud: 'no-such-client', sid }),
      await signedHint({ sub: subject, sid }),
    ];
    for (const hint of cases) expect(errorOf(await app.public.get(logoutPath({ id_token_hint: hint })))).toBe('invalid_request');
  });

  it('accepts an expired hint (it only identifies the session)', async () => {
    const { browser, subject, sid } = await loggedIn();
    const expired = await signedHint({ sub: subject, aud: [client.client_id], sid, exp: Math.floor(Date.now() / 1000) - 3600 });
    const location = locationOf(await browser.get(logoutPath({ id_token_hint: expired })));
    expect(location.startsWith(`${LOGOUT_APP}?`)).toBe(true);
  });

  it('POST with a form works like GET; another body type is 415', async () => {
    const { browser, idToken } = await loggedIn();
    const response = await browser.post('/oauth2/sessions/logout', { id_token_hint: idToken, post_logout_redirect_uri: CLIENT_LOGGED_OUT });
    challengeOf(locationOf(response));
    const json = await app.public.post('/oauth2/sessions/logout', { json: { id_token_hint: idToken } });
    expectOAuthError(json, 415, 'unsupported_media_type');
  });
});

describe('RP-initiated logout by client_id (RP-Initiated Logout 1.0 §2)', () => {
  it("without a hint: the browser's own session ends, with the client's redirect and state; logout_hint and ui_locales reach the logout app", async () => {
    const { browser, subject, sid } = await loggedIn();
    const start = await browser.get(
      logoutPath({
        client_id: client.client_id,
        post_logout_redirect_uri: CLIENT_LOGGED_OUT,
        state: 'st-2',
        logout_hint: subject,
        ui_locales: 'fr-CA en',
      }),
    );
    const challenge = challengeOf(locationOf(start));
    const request = await getLogout(challenge);
    expect(request.body).toMatchObject({ subject, sid, rp_initiated: true, logout_hint: subject, ui_locales: ['fr-CA', 'en'] });
    const { body } = await acceptLogout(challenge);
    expect(locationOf(await browser.get(body.redirect_to))).toBe(`${CLIENT_LOGGED_OUT}?state=st-2`);
    expect(await loginSkips(browser)).toBe(false);
  });

  it('with a hint: the client_id must be an audience of the hint', async () => {
    const { browser, idToken } = await loggedIn();
    const other = await registerClient(app, { post_logout_redirect_uris: [CLIENT_LOGGED_OUT] });
    expect(errorOf(await browser.get(logoutPath({ id_token_hint: idToken, client_id: other.client_id })))).toBe('invalid_request');
    challengeOf(locationOf(await browser.get(logoutPath({ id_token_hint: idToken, client_id: client.client_id }))));
  });

  it('an unknown client_id, or a post_logout_redirect_uri the client did not register, is refused and ends nothing', async () => {
    const { browser } = await loggedIn();
    expect(errorOf(await browser.get(logoutPath({ client_id: 'no-such-client' })))).toBe('invalid_request');
    const other = await registerClient(app, {
      redirect_uris: ['https://other.example/cb'],
      post_logout_redirect_uris: ['https://other.example/bye'],
    });
    const response = await browser.get(logoutPath({ client_id: other.client_id, post_logout_redirect_uri: CLIENT_LOGGED_OUT }));
    expect(errorOf(response)).toBe('invalid_request');
    expect(await loginSkips(browser)).toBe(true);
  });

  it('logout_hint and ui_locales are left out of the logout request when not sent', async () => {
    const { browser } = await loggedIn();
    const request = await getLogout(challengeOf(locationOf(await browser.get(logoutPath({ client_id: client.client_id })))));
    expect(request.body).not.toHaveProperty('logout_hint');
    expect(request.body).not.toHaveProperty('ui_locales');
  });
});

describe('back-channel logout URIs at registration', () => {
  it('S44: a backchannel_logout_uri on an internal address is refused while private networks are off (the default)', async () => {
    for (const uri of [
      'http://127.0.0.1:8080/backchannel',
      'https://169.254.169.254/latest/meta-data',
      'https://localhost/backchannel',
      'https://10.1.2.3/backchannel',
    ]) {
      const response = await app.admin.post('/clients', {
        json: { redirect_uris: ['https://client.example/cb'], backchannel_logout_uri: uri },
      });
      expectOAuthError(response, 400, 'invalid_client_metadata');
      expect((response.body as { details?: { field?: string } }).details?.field).toBe('backchannel_logout_uri');
    }
    const accepted = await app.admin.post('/clients', {
      json: { redirect_uris: ['https://client.example/cb'], backchannel_logout_uri: 'https://8.8.4.4/backchannel' },
    });
    expect(accepted.status, accepted.text).toBe(201);
  });
});

describe('logout requests on the admin API', () => {
  async function pendingLogout(): Promise<{ browser: OAuthBrowser; challenge: string }> {
    const { browser } = await loggedIn();
    return { browser, challenge: challengeOf(await browser.follow('/oauth2/sessions/logout')) };
  }

  it('404 unknown, 400 missing challenge', async () => {
    expectOAuthError(await getLogout('unknown'), 404, 'not_found');
    expectOAuthError(await acceptLogout('unknown'), 404, 'not_found');
    expectOAuthError(await app.admin.get('/oauth2/auth/requests/logout'), 400, 'invalid_request');
  });

  it('stores challenge and verifier only as digests', async () => {
    const { challenge } = await pendingLogout();
    const verifier = queryParam((await acceptLogout(challenge)).body.redirect_to, 'logout_verifier')!;
    const dump = JSON.stringify(await queryDatabase(app.databaseUrl, 'SELECT * FROM oauth2_logout_requests'));
    expect(dump).not.toContain(challenge);
    expect(dump).not.toContain(verifier);
  });

  it('reject is 204; the request is then gone (404) and nothing ends', async () => {
    const { browser, challenge } = await pendingLogout();
    const rejected = await app.admin.put(`/oauth2/auth/requests/logout/reject?logout_challenge=${challenge}`);
    expect(rejected.status, rejected.text).toBe(204);
    expectOAuthError(await getLogout(challenge), 404, 'not_found');
    expectOAuthError(await acceptLogout(challenge), 404, 'not_found');
    expect(await loginSkips(browser)).toBe(true);
  });

  it('a verifier accepted twice: only the newest works', async () => {
    const { browser, challenge } = await pendingLogout();
    const first = (await acceptLogout(challenge)).body.redirect_to;
    const second = (await acceptLogout(challenge)).body.redirect_to;
    expect(errorOf(await browser.get(first))).toBe('access_denied');
    expect(locationOf(await browser.get(second))).toBe(LOGGED_OUT);
  });

  it('S13: once used, GET, accept and reject are 409', async () => {
    const { browser, challenge } = await pendingLogout();
    await browser.get((await acceptLogout(challenge)).body.redirect_to);
    expectOAuthError(await getLogout(challenge), 409, 'conflict');
    expectOAuthError(await acceptLogout(challenge), 409, 'conflict');
    expectOAuthError(await app.admin.put(`/oauth2/auth/requests/logout/reject?logout_challenge=${challenge}`), 409, 'conflict');
  });

  it('S17: past TTL_LOGIN_CONSENT_REQUEST the request is 404 and its verifier request_unauthorized', async () => {
    const { browser, challenge } = await pendingLogout();
    const redirect = (await acceptLogout(challenge)).body.redirect_to;
    await ageLogoutRequests(app, '31 minutes');
    expectOAuthError(await getLogout(challenge), 404, 'not_found');
    expect(errorOf(await browser.get(redirect))).toBe('request_unauthorized');
    expect(await loginSkips(browser)).toBe(true);
  });
});
