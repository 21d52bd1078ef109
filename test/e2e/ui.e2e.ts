import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_UI_TEMPLATES } from '../../src/ui/ui-templates.js';
import { bootApp, type TestApp } from '../support/app.js';
import { exchangeCode, OAuthBrowser, pathOf, queryParam, registerClient, type RegisteredClient } from '../support/oauth-browser.js';

/**
 * The built-in pages over plain HTTP: an external login app with the built-in consent (claims from
 * the identity the subject names), the CSP and escaping of the pages, their CSRF and form checks,
 * pages switched off by their URL settings, and a template override folder.
 */
let app: TestApp;
let templates: string;
let client: RegisteredClient;
let identityId: string;
const LOGIN_APP = 'https://apps.example/login';
const EVIL_NAME = '<script>alert(1)</script>';

beforeAll(async () => {
  templates = await mkdtemp(join(tmpdir(), 'latchkey-ui-templates-'));
  await writeFile(
    join(templates, 'layout.hbs'),
    BUILTIN_UI_TEMPLATES.layout.replace('<body>', '<body data-brand="acme-override">'),
    'utf8',
  );
  app = await bootApp({
    URLS_LOGIN: LOGIN_APP,
    URLS_SELFSERVICE_REGISTRATION_UI: 'https://apps.example/registration',
    UI_TEMPLATES_DIR: templates,
    UI_PRIMARY_COLOR: '#0B7285',
  });
  client = await registerClient(app, { client_name: EVIL_NAME, scope: 'openid profile email' });
  const created = await app.admin.post<{ id: string }>('/identities', {
    json: { schema_id: 'default', traits: { email: 'grace@example.com', name: { first: 'Grace', last: 'Hopper' } } },
  });
  expect(created.status, created.text).toBe(201);
  identityId = created.body.id;
});

afterAll(async () => {
  await app?.close();
  await rm(templates, { recursive: true, force: true });
});

/** Authorizes and lets the external login app accept as the identity: returns the browser at the consent page's URL. */
async function atConsent(browser: OAuthBrowser, scope = 'openid profile email'): Promise<string> {
  const login = await browser.authorize({
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0]!,
    response_type: 'code',
    scope,
    state: 'state-0123456789',
  });
  expect(login.startsWith(`${LOGIN_APP}?`)).toBe(true);
  const consent = await browser.follow(await browser.acceptLogin(login, { subject: identityId }));
  expect(pathOf(consent).startsWith('/ui/oauth2/consent?consent_challenge=')).toBe(true);
  return consent;
}

/** The error code an error page shows. */
function errorCodeOf(html: string): string | undefined {
  return /<span class="code">\d+ ([a-z_]+)<\/span>/.exec(html)?.[1];
}

function csrfTokenOf(html: string): string {
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  expect(token).toBeDefined();
  return token!;
}

describe('built-in consent after an external login app', () => {
  it('renders escaped, under a strict CSP, with the override layout, and grants the claims of the identity named by the subject', async () => {
    const browser = new OAuthBrowser(app);
    const consent = await atConsent(browser);
    const page = await browser.get(consent);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).not.toContain(EVIL_NAME);
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).toContain('data-brand="acme-override"');
    expect(page.text).not.toMatch(/<script/i);

    const challenge = queryParam(consent, 'consent_challenge')!;
    const allowed = await browser.post('/ui/oauth2/consent', {
      csrf_token: csrfTokenOf(page.text),
      consent_challenge: challenge,
      decision: 'accept',
    });
    expect(allowed.status, allowed.text).toBe(303);
    const back = await browser.follow(allowed.headers.get('location')!);
    const code = new URL(back).searchParams.get('code');
    expect(code).not.toBeNull();
    const tokens = await exchangeCode(app, client, code!);
    expect(tokens.status, tokens.text).toBe(200);
    const idToken = decodeJwt(String(tokens.body['id_token']));
    expect(idToken).toMatchObject({ sub: identityId, email: 'grace@example.com', email_verified: false, name: 'Grace Hopper' });
    const userinfo = await app.public.get<Record<string, unknown>>('/userinfo', {
      headers: { authorization: `Bearer ${String(tokens.body['access_token'])}` },
    });
    expect(userinfo.status).toBe(200);
    expect(userinfo.body).toMatchObject({ sub: identityId, email: 'grace@example.com', given_name: 'Grace', family_name: 'Hopper' });
  });

  it('releases only the claims of the scopes granted', async () => {
    const browser = new OAuthBrowser(app);
    const consent = await atConsent(browser, 'openid email');
    const page = await browser.get(consent);
    const allowed = await browser.post('/ui/oauth2/consent', {
      csrf_token: csrfTokenOf(page.text),
      consent_challenge: queryParam(consent, 'consent_challenge')!,
      decision: 'accept',
    });
    const back = await browser.follow(allowed.headers.get('location')!);
    const tokens = await exchangeCode(app, client, new URL(back).searchParams.get('code')!);
    const idToken = decodeJwt(String(tokens.body['id_token']));
    expect(idToken['email']).toBe('grace@example.com');
    expect(idToken).not.toHaveProperty('name');
    expect(idToken).not.toHaveProperty('given_name');
  });

  it('refuses a form without the CSRF token, with another browser’s token, or with an unknown decision; nothing is decided', async () => {
    const browser = new OAuthBrowser(app);
    const consent = await atConsent(browser);
    const page = await browser.get(consent);
    const challenge = queryParam(consent, 'consent_challenge')!;
    const token = csrfTokenOf(page.text);

    const missing = await browser.post('/ui/oauth2/consent', { consent_challenge: challenge, decision: 'accept' });
    expect(missing.status).toBe(403);
    expect(missing.headers.get('content-type')).toMatch(/^text\/html/);

    const stranger = new OAuthBrowser(app);
    // Another browser with a CSRF cookie of its own.
    await stranger.get('/self-service/login/browser');
    expect(stranger.jar.names()).toContain('service_csrf_token');
    const forged = await stranger.post('/ui/oauth2/consent', { csrf_token: token, consent_challenge: challenge, decision: 'accept' });
    expect(forged.status).toBe(403);

    const tampered = await browser.post('/ui/oauth2/consent', {
      csrf_token: `${token}x`,
      consent_challenge: challenge,
      decision: 'accept',
    });
    expect(tampered.status).toBe(403);

    const odd = await browser.post('/ui/oauth2/consent', { csrf_token: token, consent_challenge: challenge, decision: 'maybe' });
    expect(odd.status).toBe(400);

    // Still undecided: the consent app may answer it.
    const pending = await app.admin.get(`/oauth2/auth/requests/consent?consent_challenge=${encodeURIComponent(challenge)}`);
    expect(pending.status, pending.text).toBe(200);
    const denied = await browser.post('/ui/oauth2/consent', { csrf_token: token, consent_challenge: challenge, decision: 'reject' });
    expect(denied.status).toBe(303);
    const back = await browser.follow(denied.headers.get('location')!);
    expect(new URL(back).searchParams.get('error')).toBe('access_denied');
  });

  it('another browser holding the challenge can neither see nor answer the consent; the browser it was asked in still can', async () => {
    const asker = new OAuthBrowser(app);
    const consent = await atConsent(asker);
    const challenge = queryParam(consent, 'consent_challenge')!;
    const page = await asker.get(consent);
    expect(page.status).toBe(200);

    // Another person's browser, at a consent of its own: its form token is valid, its consent cookie is not A's.
    const other = new OAuthBrowser(app);
    const otherPage = await other.get(await atConsent(other));
    const otherToken = csrfTokenOf(otherPage.text);
    // And a browser with no authorization at all, with only a CSRF cookie.
    const bare = new OAuthBrowser(app);
    const signIn = await bare.get(await bare.follow('/self-service/login/browser'));
    const bareToken = csrfTokenOf(signIn.text);
    for (const [stranger, token] of [
      [other, otherToken],
      [bare, bareToken],
    ] as const) {
      const shown = await stranger.get(consent);
      expect(shown.status).toBe(403);
      expect(errorCodeOf(shown.text)).toBe('request_forbidden');
      for (const decision of ['accept', 'reject']) {
        const answered = await stranger.post('/ui/oauth2/consent', { csrf_token: token, consent_challenge: challenge, decision });
        expect(answered.status).toBe(403);
        expect(errorCodeOf(answered.text)).toBe('request_forbidden');
      }
    }

    const pending = await app.admin.get<{ skip: boolean }>(
      `/oauth2/auth/requests/consent?consent_challenge=${encodeURIComponent(challenge)}`,
    );
    expect(pending.status, pending.text).toBe(200);
    const allowed = await asker.post('/ui/oauth2/consent', {
      csrf_token: csrfTokenOf(page.text),
      consent_challenge: challenge,
      decision: 'accept',
    });
    expect(allowed.status, allowed.text).toBe(303);
    const back = await asker.follow(allowed.headers.get('location')!);
    expect(new URL(back).searchParams.get('code')).not.toBeNull();
  });

  it('a replayed consent form after the code was issued is a 409 page', async () => {
    const browser = new OAuthBrowser(app);
    const consent = await atConsent(browser);
    const page = await browser.get(consent);
    const form = { csrf_token: csrfTokenOf(page.text), consent_challenge: queryParam(consent, 'consent_challenge')!, decision: 'accept' };
    const allowed = await browser.post('/ui/oauth2/consent', form);
    await browser.follow(allowed.headers.get('location')!);
    const replayed = await browser.post('/ui/oauth2/consent', form);
    expect(replayed.status).toBe(409);
    expect(replayed.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('odd bodies are refused as pages: repeated token, another content type, too large', async () => {
    const browser = new OAuthBrowser(app);
    const consent = await atConsent(browser);
    const page = await browser.get(consent);
    const token = csrfTokenOf(page.text);
    const challenge = queryParam(consent, 'consent_challenge')!;
    const repeated = await app.public.post('/ui/oauth2/consent', {
      rawBody: `csrf_token=${token}&csrf_token=${token}&consent_challenge=${challenge}&decision=accept`,
      headers: { ...browser.jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(repeated.status).toBe(403);
    const plain = await app.public.post('/ui/oauth2/consent', {
      rawBody: 'decision=accept',
      headers: { ...browser.jar.header(), 'content-type': 'text/plain' },
    });
    expect(plain.status).toBe(415);
    const huge = await app.public.post('/ui/oauth2/consent', {
      rawBody: `csrf_token=${token}&consent_challenge=${challenge}&decision=accept&pad=${'x'.repeat(2 * 1024 * 1024)}`,
      headers: { ...browser.jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(huge.status).toBe(413);
    const lookalike = await browser.get(`/ui/oauth2/consent?consent_challenge=${encodeURIComponent(challenge.replace(/[a-z]/, 'а'))}`);
    expect(lookalike.status).toBe(404);
    // Nothing was decided: the consent app may still answer.
    const pending = await app.admin.get(`/oauth2/auth/requests/consent?consent_challenge=${encodeURIComponent(challenge)}`);
    expect(pending.status, pending.text).toBe(200);
  });

  it('a missing or unknown challenge is a 4xx page', async () => {
    const browser = new OAuthBrowser(app);
    expect((await browser.get('/ui/oauth2/consent')).status).toBe(400);
    const unknown = await browser.get('/ui/oauth2/consent?consent_challenge=unknown');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await browser.get('/ui/oauth2/logout?logout_challenge=unknown')).status).toBe(404);
  });
});

describe('built-in logout', () => {
  /** A browser with a remembered login (the external login app said remember) and its logout page. */
  async function atLogout(): Promise<{ browser: OAuthBrowser; page: string; challenge: string }> {
    const browser = new OAuthBrowser(app);
    const login = await browser.authorize({
      client_id: client.client_id,
      redirect_uri: client.redirect_uris[0]!,
      response_type: 'code',
      scope: 'openid',
      state: 'state-0123456789',
    });
    await browser.follow(await browser.acceptLogin(login, { subject: identityId, remember: true, remember_for: 3600 }));
    const logout = await browser.follow('/oauth2/sessions/logout');
    expect(pathOf(logout).startsWith('/ui/oauth2/logout?logout_challenge=')).toBe(true);
    const page = await browser.get(logout);
    expect(page.status).toBe(200);
    return { browser, page: page.text, challenge: queryParam(logout, 'logout_challenge')! };
  }

  it('"no" keeps the login: the request is rejected and the next authorization skips the login', async () => {
    const { browser, page, challenge } = await atLogout();
    const stayed = await browser.post('/ui/oauth2/logout', {
      csrf_token: csrfTokenOf(page),
      logout_challenge: challenge,
      decision: 'reject',
    });
    expect(stayed.status).toBe(200);
    expect(stayed.headers.get('content-type')).toMatch(/^text\/html/);
    const again = await browser.post('/ui/oauth2/logout', {
      csrf_token: csrfTokenOf(page),
      logout_challenge: challenge,
      decision: 'accept',
    });
    expect(again.status).toBe(404);
    const login = await browser.authorize({
      client_id: client.client_id,
      redirect_uri: client.redirect_uris[0]!,
      response_type: 'code',
      scope: 'openid',
      state: 'state-0123456789',
    });
    const request = await app.admin.get<{ skip: boolean }>(
      `/oauth2/auth/requests/login?login_challenge=${encodeURIComponent(queryParam(login, 'login_challenge')!)}`,
    );
    expect(request.body.skip).toBe(true);
  });

  it('"yes" goes on with the logout', async () => {
    const { browser, page, challenge } = await atLogout();
    const accepted = await browser.post('/ui/oauth2/logout', {
      csrf_token: csrfTokenOf(page),
      logout_challenge: challenge,
      decision: 'accept',
    });
    expect(accepted.status).toBe(303);
    const verifier = accepted.headers.get('location')!;
    expect(pathOf(verifier).startsWith('/oauth2/sessions/logout?logout_verifier=')).toBe(true);
    const done = await browser.get(verifier);
    expect(done.status).toBe(302);
    expect(pathOf(done.headers.get('location')!)).toBe('/oauth2/fallbacks/logout/callback');
  });
});

describe('pages switched off or started over', () => {
  it('pages whose URL settings name apps of one’s own are not served', async () => {
    expect((await app.public.get('/ui/oauth2/login?login_challenge=x')).status).toBe(404);
    expect((await app.public.get('/ui/registration')).status).toBe(404);
    expect((await app.admin.get('/ui/login')).status).toBe(404);
  });

  it('a self-service page without a flow, or with an unknown one, starts a new browser flow', async () => {
    const none = await app.public.get('/ui/login');
    expect(none.status).toBe(303);
    expect(pathOf(none.headers.get('location')!)).toBe('/self-service/login/browser');
    const unknown = await app.public.get(`/ui/recovery?flow=${randomUUID()}`);
    expect(unknown.status).toBe(303);
    expect(pathOf(unknown.headers.get('location')!)).toBe('/self-service/recovery/browser');
    const malformed = await app.public.get('/ui/login?flow=%3Cscript%3E');
    expect(pathOf(malformed.headers.get('location')!)).toBe('/self-service/login/browser');
  });

  it('settings without a session go to sign-in first', async () => {
    const response = await app.public.get(`/ui/settings?flow=${randomUUID()}`);
    expect(response.status).toBe(303);
    const start = pathOf(response.headers.get('location')!);
    expect(start).toBe('/self-service/settings/browser');
    const started = await app.public.get(start);
    expect(started.status).toBe(302);
    expect(new URL(started.headers.get('location')!).pathname).toBe('/self-service/login/browser');
  });

  it('serves the stylesheet with the brand colour', async () => {
    const css = await app.public.get('/ui/static/style.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(css.text).toContain('--primary: #0b7285');
  });
});
