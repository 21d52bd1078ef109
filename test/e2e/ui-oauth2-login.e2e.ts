import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import type { HttpResponse } from '../support/http.js';
import { OAuthBrowser, pathOf, queryParam, registerClient, type RegisteredClient } from '../support/oauth-browser.js';
import { createPasswordIdentity, GOOD_PASSWORD, type FlowShape } from '../support/self-service.js';

/**
 * The built-in OAuth2 login page over plain HTTP, as the hand-off asks of a login app: a skip is
 * accepted without a page, `prompt=login` sends a signed-in browser to the password again (the form
 * posted without it accepts nothing), a session the hand-off did not remember is confirmed with
 * "continue as", and the authorization's `login_hint` fills the sign-in's identifier.
 */
let app: TestApp;
let client: RegisteredClient;
const EMAIL = 'grace@example.com';

beforeAll(async () => {
  app = await bootApp();
  client = await registerClient(app, { scope: 'openid profile email' });
  await createPasswordIdentity(app, EMAIL);
});

afterAll(async () => {
  await app?.close();
});

/** Starts an authorization; returns the URL of the built-in login page it sends the browser to. */
async function authorize(browser: OAuthBrowser, extra: Record<string, string> = {}): Promise<string> {
  const login = await browser.authorize({
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0]!,
    response_type: 'code',
    scope: 'openid email',
    state: 'state-0123456789',
    ...extra,
  });
  expect(pathOf(login).startsWith('/ui/oauth2/login?login_challenge=')).toBe(true);
  return login;
}

/** Where a 303 of the pages goes (as a path). */
function seeOther(response: HttpResponse): string {
  expect(response.status, response.text).toBe(303);
  return pathOf(response.headers.get('location')!);
}

function csrfTokenOf(html: string): string {
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  expect(token).toBeDefined();
  return token!;
}

function identifierValueOf(html: string): string | undefined {
  return /name="password_identifier" value="([^"]*)"/.exec(html)?.[1];
}

/** Follows a start of the sign-in to the built-in sign-in page; returns it. */
async function signInPage(browser: OAuthBrowser, start: string): Promise<HttpResponse> {
  const page = await browser.get(await browser.follow(start));
  expect(page.status).toBe(200);
  return page;
}

/** Submits the sign-in page's form; returns where the sign-in sends the browser. */
async function signIn(browser: OAuthBrowser, page: HttpResponse, identifier = EMAIL, password = GOOD_PASSWORD): Promise<HttpResponse> {
  // Handlebars escapes `=` and `&` in attributes.
  const action = /<form method="post" action="([^"]+)"/.exec(page.text)?.[1]?.replaceAll('&#x3D;', '=').replaceAll('&amp;', '&');
  expect(action).toBeDefined();
  const response = await browser.post(action!, {
    csrf_token: csrfTokenOf(page.text),
    method: 'password',
    password_identifier: identifier,
    password,
  });
  return response;
}

async function loginRequest(login: string): Promise<HttpResponse<{ skip: boolean }>> {
  return app.admin.get(`/oauth2/auth/requests/login?login_challenge=${encodeURIComponent(queryParam(login, 'login_challenge')!)}`);
}

/** A browser signed in through the built-in pages, its login remembered (or not) by the hand-off, its consent remembered. */
async function signedIn(remember: boolean): Promise<OAuthBrowser> {
  const browser = new OAuthBrowser(app);
  const login = await authorize(browser);
  const signedInTo = await signIn(browser, await signInPage(browser, seeOther(await browser.get(login))));
  expect(pathOf(signedInTo.headers.get('location')!)).toBe(pathOf(login));
  const page = await browser.get(login);
  expect(page.status).toBe(200);
  const accepted = await browser.post('/ui/oauth2/login', {
    csrf_token: csrfTokenOf(page.text),
    login_challenge: queryParam(login, 'login_challenge')!,
    decision: 'accept',
    ...(remember ? { remember: 'true' } : {}),
  });
  expect(new URL(await throughConsent(browser, await browser.follow(seeOther(accepted)))).searchParams.get('code')).not.toBeNull();
  return browser;
}

/** From the consent page (allowed and remembered, unless remembered already) back to the client; returns the redirect to it. */
async function throughConsent(browser: OAuthBrowser, consent: string): Promise<string> {
  const page = await browser.get(consent);
  if (page.status === 303) return browser.follow(seeOther(page));
  const allowed = await browser.post('/ui/oauth2/consent', {
    csrf_token: csrfTokenOf(page.text),
    consent_challenge: queryParam(consent, 'consent_challenge')!,
    decision: 'accept',
    remember: 'true',
  });
  return browser.follow(seeOther(allowed));
}

describe('the built-in OAuth2 login follows the login request', () => {
  it('a skip is accepted at once, without a page', async () => {
    const browser = await signedIn(true);
    const login = await authorize(browser);
    expect((await loginRequest(login)).body.skip).toBe(true);
    const accepted = seeOther(await browser.get(login));
    expect(accepted.startsWith('/oauth2/auth?')).toBe(true);
    expect(queryParam(accepted, 'login_verifier')).not.toBeNull();
    expect(new URL(await throughConsent(browser, await browser.follow(accepted))).searchParams.get('code')).not.toBeNull();
  });

  it('prompt=login asks for the password again, whatever the session; the form posted without it accepts nothing', async () => {
    const browser = await signedIn(true);
    const login = await authorize(browser, { prompt: 'login' });
    expect((await loginRequest(login)).body.skip).toBe(false);
    const start = seeOther(await browser.get(login));
    expect(start.startsWith('/self-service/login/browser?')).toBe(true);
    expect(queryParam(start, 'refresh')).toBe('true');
    expect(queryParam(start, 'return_to')).toBe(login);

    // A continue form of this browser's own, posted for this request without signing in again.
    const page = await signInPage(browser, start);
    const forced = await browser.post('/ui/oauth2/login', {
      csrf_token: csrfTokenOf(page.text),
      login_challenge: queryParam(login, 'login_challenge')!,
      decision: 'accept',
    });
    expect(seeOther(forced)).toBe(pathOf(login));
    expect(seeOther(await browser.get(login)).startsWith('/self-service/login/browser?')).toBe(true);

    // Signed in again: now the request is answered (it was not before: a second answer would be 409).
    const signedInTo = await signIn(browser, page);
    expect(pathOf(signedInTo.headers.get('location')!)).toBe(pathOf(login));
    const confirm = await browser.get(login);
    expect(confirm.status).toBe(200);
    const accepted = await browser.post('/ui/oauth2/login', {
      csrf_token: csrfTokenOf(confirm.text),
      login_challenge: queryParam(login, 'login_challenge')!,
      decision: 'accept',
    });
    expect(queryParam(seeOther(accepted), 'login_verifier')).not.toBeNull();
  });

  it('a session the hand-off did not remember is confirmed: "continue as" the signed-in identity', async () => {
    const browser = await signedIn(false);
    const login = await authorize(browser);
    expect((await loginRequest(login)).body.skip).toBe(false);
    const page = await browser.get(login);
    expect(page.status).toBe(200);
    expect(page.text).toContain(EMAIL);
    expect(page.text).toContain('name="remember"');
  });
});

describe('login_hint', () => {
  it('fills the identifier of the sign-in page (escaped, only shown); what is typed wins after a failed attempt', async () => {
    const hint = `${EMAIL}"><b>bold</b>`;
    const browser = new OAuthBrowser(app);
    const login = await authorize(browser, { login_hint: hint });
    const signInUrl = await browser.follow(seeOther(await browser.get(login)));
    const page = await browser.get(signInUrl);
    expect(identifierValueOf(page.text)).toBe('grace@example.com&quot;&gt;&lt;b&gt;bold&lt;/b&gt;');
    expect(page.text).not.toContain('<b>');
    // The flow itself is untouched: its identifier is still empty.
    const flow = await browser.get(`/self-service/login/flows?id=${queryParam(signInUrl, 'flow')!}`);
    expect(flow.status).toBe(200);
    expect((flow.body as FlowShape).ui.nodes.find((node) => node.attributes.name === 'password_identifier')?.attributes.value).toBe('');

    const failed = await signIn(browser, page, 'someone@example.com', 'not the password at all');
    const again = await browser.get(failed.headers.get('location')!);
    expect(again.status).toBe(200);
    expect(identifierValueOf(again.text)).toBe('someone@example.com');
  });

  it('a hint is shown, never acted on: signing in as someone else works', async () => {
    const browser = new OAuthBrowser(app);
    const other = 'ada@example.com';
    await createPasswordIdentity(app, other);
    const login = await authorize(browser, { login_hint: EMAIL });
    const page = await signInPage(browser, seeOther(await browser.get(login)));
    expect(identifierValueOf(page.text)).toBe(EMAIL);
    const signedInTo = await signIn(browser, page, other);
    expect(pathOf(signedInTo.headers.get('location')!)).toBe(pathOf(login));
    const confirm = await browser.get(login);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain(other);
  });

  it('a sign-in page that does not return to a login request shows no hint', async () => {
    const browser = new OAuthBrowser(app);
    const page = await signInPage(browser, '/self-service/login/browser');
    expect(identifierValueOf(page.text)).toBe('');
  });
});
