import { createHash, randomBytes } from 'node:crypto';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackchannelLogoutNotifier } from '../../src/oauth/logout/backchannel-logout.notifier.js';
import { bootApp, type TestApp } from '../support/app.js';
import type { HttpResponse } from '../support/http.js';
import { LogoutReceiver, type ReceivedRequest } from '../support/logout-receiver.js';
import {
  OAuthBrowser,
  queryParam,
  registerClient,
  responseParams,
  signInForIdToken,
  type RegisteredClient,
} from '../support/oauth-browser.js';

/**
 * OpenID Connect Front-Channel and Back-Channel Logout, over real HTTP: relying parties' back-channel
 * endpoints are a real node:http server on a loopback port (reachable because this app runs with
 * OUTBOUND_ALLOW_PRIVATE_NETWORKS=true; the refusal of such URIs by default is in oauth-logout.e2e.ts),
 * and every Logout Token is verified against /.well-known/jwks.json with jose.
 */
const ISSUER = 'https://id.example';
const LOGOUT_APP = 'https://apps.example/logout';
const LOGGED_OUT = 'https://apps.example/logged-out';
const BACKCHANNEL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

let app: TestApp;
let receiver: LogoutReceiver;
let jwks: ReturnType<typeof createRemoteJWKSet>;

beforeAll(async () => {
  receiver = await LogoutReceiver.start();
  app = await bootApp({
    ISSUER_URL: ISSUER,
    URLS_LOGIN: 'https://apps.example/login',
    URLS_CONSENT: 'https://apps.example/consent',
    URLS_LOGOUT: LOGOUT_APP,
    URLS_ERROR: 'https://apps.example/error',
    URLS_POST_LOGOUT_REDIRECT: LOGGED_OUT,
    OIDC_SUBJECT_TYPES: 'public,pairwise',
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
    OUTBOUND_TIMEOUT_MS: '3000',
  });
  jwks = createRemoteJWKSet(new URL(`${app.public.baseUrl}/.well-known/jwks.json`));
});

afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

interface RelyingParty extends RegisteredClient {
  readonly bye: string;
}

/** A client on its own host, with a post-logout redirect URI there, and the given logout metadata. */
async function relyingParty(metadata: Record<string, unknown> = {}): Promise<RelyingParty> {
  const host = `rp-${randomBytes(4).toString('hex')}.example`;
  const bye = `https://${host}/bye`;
  const client = await registerClient(app, { redirect_uris: [`https://${host}/cb`], post_logout_redirect_uris: [bye], ...metadata });
  return { ...client, bye };
}

/** A fresh back-channel endpoint path on the receiver. */
function endpoint(): string {
  return `/backchannel/${randomBytes(6).toString('hex')}`;
}

/** Signs the browser in at `client` (the login is remembered, so a second client skips it); returns the ID token. */
function signIn(browser: OAuthBrowser, client: RegisteredClient, subject: string): Promise<string> {
  return signInForIdToken(app, browser, client, subject);
}

function subject(): string {
  return `user-${randomBytes(6).toString('hex')}`;
}

/** Starts a logout (with these parameters), lets the logout app accept, and returns the browser's last response. */
async function logOut(browser: OAuthBrowser, parameters: Record<string, string> = {}): Promise<HttpResponse> {
  const start = await browser.get(`/oauth2/sessions/logout?${new URLSearchParams(parameters).toString()}`);
  expect(start.status, start.text).toBe(302);
  const challenge = queryParam(start.headers.get('location')!, 'logout_challenge');
  expect(challenge, start.headers.get('location')!).not.toBeNull();
  const accepted = await app.admin.put<{ redirect_to: string }>(
    `/oauth2/auth/requests/logout/accept?logout_challenge=${encodeURIComponent(challenge!)}`,
  );
  expect(accepted.status, accepted.text).toBe(200);
  return browser.get(accepted.body.redirect_to);
}

/** Every back-channel delivery started so far has ended. */
function deliveriesSettled(): Promise<void> {
  return app.running.app.get(BackchannelLogoutNotifier).idle();
}

/** The one Logout Token of a back-channel request, checked for the form and verified against the JWKS. */
async function logoutTokenOf(request: ReceivedRequest, clientId: string): Promise<{ payload: JWTPayload; raw: string }> {
  expect(request.method).toBe('POST');
  expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
  expect([...request.form.keys()]).toEqual(['logout_token']);
  const raw = request.form.get('logout_token')!;
  const { payload } = await jwtVerify(raw, jwks, { issuer: ISSUER, audience: clientId, typ: 'logout+jwt' });
  return { payload, raw };
}

async function loginSkips(browser: OAuthBrowser, client: RegisteredClient): Promise<boolean> {
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

describe('back-channel logout', () => {
  it('S44: every client of the session gets a signed Logout Token (typ logout+jwt, events, sid, its own sub, no nonce); no other client does', async () => {
    const [pathA, pathB, pathRefused, pathOther] = [endpoint(), endpoint(), endpoint(), endpoint()];
    const a = await relyingParty({ backchannel_logout_uri: receiver.url(pathA), backchannel_logout_session_required: true });
    const b = await relyingParty({ backchannel_logout_uri: receiver.url(pathB), subject_type: 'pairwise' });
    const refused = await relyingParty({ backchannel_logout_uri: receiver.url(pathRefused) });
    const other = await relyingParty({ backchannel_logout_uri: receiver.url(pathOther) });

    const user = subject();
    const browser = new OAuthBrowser(app);
    const idTokenA = await signIn(browser, a, user);
    const idTokenB = await signIn(browser, b, user);
    const sid = decodeJwt(idTokenA)['sid'];
    expect(decodeJwt(idTokenB)['sid']).toBe(sid);
    expect(decodeJwt(idTokenB).sub).not.toBe(user);
    // In the same session, the consent app refused a third client: it got no tokens.
    const loginLocation = await browser.authorize({
      client_id: refused.client_id,
      response_type: 'code',
      redirect_uri: refused.redirect_uris[0]!,
      scope: 'openid',
      state: 'state-0123456789',
    });
    const consentLocation = await browser.follow(await browser.acceptLogin(loginLocation, { subject: user }));
    const deniedAt = await browser.follow(await browser.rejectConsent(consentLocation, { error: 'access_denied' }));
    expect(responseParams(deniedAt).get('error')).toBe('access_denied');
    // The same subject signed in elsewhere (another login session) at another client.
    await signIn(new OAuthBrowser(app), other, user);

    const done = await logOut(browser, { id_token_hint: idTokenA, post_logout_redirect_uri: a.bye, state: 'st-1' });
    expect(done.status, done.text).toBe(302);
    expect(done.headers.get('location')).toBe(`${a.bye}?state=st-1`);

    const [requestA] = await receiver.waitFor(pathA);
    const [requestB] = await receiver.waitFor(pathB);
    await deliveriesSettled();
    expect(receiver.received(pathA)).toHaveLength(1);
    expect(receiver.received(pathB)).toHaveLength(1);
    expect(receiver.received(pathRefused)).toEqual([]);
    expect(receiver.received(pathOther)).toEqual([]);

    const published = (await app.public.get<{ keys: { kid: string }[] }>('/.well-known/jwks.json')).body.keys.map((key) => key.kid);
    const seen: string[] = [];
    for (const [request, client, idToken] of [
      [requestA!, a, idTokenA],
      [requestB!, b, idTokenB],
    ] as const) {
      const { payload, raw } = await logoutTokenOf(request, client.client_id);
      const header = decodeProtectedHeader(raw);
      expect(header.typ).toBe('logout+jwt');
      expect(header.alg).not.toBe('none');
      expect(published).toContain(header.kid);
      expect(payload.iss).toBe(ISSUER);
      expect(payload.aud).toBe(client.client_id);
      expect(payload.sub).toBe(decodeJwt(idToken).sub);
      expect(payload['sid']).toBe(sid);
      expect(payload['events']).toEqual({ [BACKCHANNEL_EVENT]: {} });
      expect(decodeJwt(idToken)['nonce']).toBeTypeOf('string');
      expect(payload).not.toHaveProperty('nonce');
      expect(payload.exp! - payload.iat!).toBeGreaterThan(0);
      expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(120);
      expect(payload.jti).toBeTypeOf('string');
      seen.push(payload.jti!);
    }
    expect(new Set(seen).size).toBe(2);
  });

  it('an OP-initiated logout (no id_token_hint) notifies the clients of the browser session too', async () => {
    const path = endpoint();
    const client = await relyingParty({ backchannel_logout_uri: receiver.url(path) });
    const browser = new OAuthBrowser(app);
    const idToken = await signIn(browser, client, subject());
    const done = await logOut(browser);
    expect(done.status, done.text).toBe(302);
    expect(done.headers.get('location')).toBe(LOGGED_OUT);
    const [request] = await receiver.waitFor(path);
    const { payload } = await logoutTokenOf(request!, client.client_id);
    expect(payload['sid']).toBe(decodeJwt(idToken)['sid']);
  });

  it('a client that refuses, is unreachable or hangs neither holds up nor fails the logout, nor stops the others', async () => {
    const [refusing, hanging, fine] = [endpoint(), endpoint(), endpoint()];
    receiver.respond(refusing, 500);
    receiver.respond(hanging, 'hold');
    const clients = [
      await relyingParty({ backchannel_logout_uri: receiver.url(refusing) }),
      await relyingParty({ backchannel_logout_uri: receiver.url(hanging) }),
      // Nothing listens on port 1: the connection is refused.
      await relyingParty({ backchannel_logout_uri: 'http://127.0.0.1:1/backchannel' }),
      await relyingParty({ backchannel_logout_uri: receiver.url(fine) }),
    ];
    const browser = new OAuthBrowser(app);
    const user = subject();
    for (const client of clients) await signIn(browser, client, user);

    const done = await logOut(browser);
    expect(done.status, done.text).toBe(302);
    expect(done.headers.get('location')).toBe(LOGGED_OUT);
    expect(await loginSkips(browser, clients[0]!)).toBe(false);

    // The browser has its answer while the hanging client still holds its delivery open.
    const held = await receiver.waitForHeld(hanging);
    expect(held.isOpen()).toBe(true);
    held.answer(200);
    await receiver.waitFor(refusing);
    const [delivered] = await receiver.waitFor(fine);
    await logoutTokenOf(delivered!, clients[3]!.client_id);
    await deliveriesSettled();
  });

  it('a logout that ends no session (the browser lost it meanwhile) notifies nobody', async () => {
    const path = endpoint();
    const client = await relyingParty({ backchannel_logout_uri: receiver.url(path) });
    const browser = new OAuthBrowser(app);
    await signIn(browser, client, subject());
    const start = await browser.get('/oauth2/sessions/logout');
    const challenge = queryParam(start.headers.get('location')!, 'logout_challenge')!;
    const accepted = await app.admin.put<{ redirect_to: string }>(`/oauth2/auth/requests/logout/accept?logout_challenge=${challenge}`);
    browser.jar.delete('oauth2_authentication_session');
    const done = await browser.get(accepted.body.redirect_to);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe(LOGGED_OUT);
    await deliveriesSettled();
    expect(receiver.received(path)).toEqual([]);
  });
});

describe('front-channel logout', () => {
  function unescape(value: string): string {
    return value
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  }

  it('renders one iframe per client of the session (iss and sid on each), under a CSP that frames only them, then moves on', async () => {
    const backchannel = endpoint();
    const one = await relyingParty({
      frontchannel_logout_uri: 'https://fc-one.example/logout',
      frontchannel_logout_session_required: true,
    });
    const two = await relyingParty({ frontchannel_logout_uri: 'https://fc-two.example:8443/fc?tenant=t' });
    const outside = await relyingParty({ frontchannel_logout_uri: 'https://fc-outside.example/logout' });
    const both = await relyingParty({ backchannel_logout_uri: receiver.url(backchannel) });
    const browser = new OAuthBrowser(app);
    const user = subject();
    const idToken = await signIn(browser, one, user);
    await signIn(browser, two, user);
    await signIn(browser, both, user);
    const sid = decodeJwt(idToken)['sid'] as string;

    const page = await logOut(browser, { id_token_hint: idToken, post_logout_redirect_uri: one.bye, state: 'st-2' });
    expect(page.status, page.text).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.getSetCookie().some((line) => line.startsWith('oauth2_authentication_session=;'))).toBe(true);

    const frames = [...page.text.matchAll(/<iframe src="([^"]*)"/g)].map((match) => unescape(match[1]!));
    expect(frames.sort()).toEqual(
      [
        `https://fc-one.example/logout?${new URLSearchParams({ iss: ISSUER, sid }).toString()}`,
        `https://fc-two.example:8443/fc?tenant=t&${new URLSearchParams({ iss: ISSUER, sid }).toString()}`,
      ].sort(),
    );
    const withSession = new URL(frames.find((frame) => frame.startsWith('https://fc-one.example/'))!);
    expect(withSession.searchParams.get('iss')).toBe(ISSUER);
    expect(withSession.searchParams.get('sid')).toBe(sid);
    expect(page.text).not.toContain(outside.client_id);
    expect(page.text).not.toContain('fc-outside.example');

    const csp = page.headers.get('content-security-policy')!;
    const directives = new Map(
      csp
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .map(([name, ...values]) => [name!, values]),
    );
    expect(new Set(directives.get('frame-src'))).toEqual(new Set(['https://fc-one.example', 'https://fc-two.example:8443']));
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('default-src')).toEqual(["'none'"]);
    const scripts = [...page.text.matchAll(/<script>([^<]*)<\/script>/g)].map((match) => match[1]!);
    expect(scripts).toHaveLength(1);
    expect(directives.get('script-src')).toEqual([`'sha256-${createHash('sha256').update(scripts[0]!).digest('base64')}'`]);
    expect(page.text).not.toMatch(/\son[a-z]+=/i);

    const onwards = `${one.bye}?state=st-2`;
    expect(unescape(/<a id="continue" href="([^"]*)"/.exec(page.text)![1]!)).toBe(onwards);
    expect(page.headers.get('refresh')).toMatch(new RegExp(`^\\d+; url=${onwards.replace(/[.?]/g, '\\$&')}$`));

    // Back-channel goes out for the same logout, and the session is over.
    const [request] = await receiver.waitFor(backchannel);
    await logoutTokenOf(request!, both.client_id);
    expect(await loginSkips(browser, one)).toBe(false);
  });

  it('without front-channel clients in the session, the logout stays a 302', async () => {
    const client = await relyingParty();
    const browser = new OAuthBrowser(app);
    const idToken = await signIn(browser, client, subject());
    const done = await logOut(browser, { id_token_hint: idToken });
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe(LOGGED_OUT);
  });
});
