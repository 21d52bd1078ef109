import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import type { HttpResponse } from '../support/http.js';
import { pathOf } from '../support/oauth-browser.js';
import { Browser, createPasswordIdentity, GOOD_PASSWORD, type SessionShape } from '../support/self-service.js';

/**
 * A browser flow belongs to the browser it was started in: its form, submitted from another browser
 * (another cookie jar: no CSRF cookie, or its own), is 403 `security_csrf_violation` and changes
 * nothing (no session, no identity, no new password), while the browser it belongs to can still use
 * it. Over the built-in pages, as a person would meet them: the page's form, posted as it is.
 */
let app: TestApp;

beforeAll(async () => {
  app = await bootApp();
});

afterAll(async () => {
  await app?.close();
});

interface PageForm {
  readonly action: string;
  readonly csrfToken: string;
}

function unescapeHtml(value: string): string {
  return value
    .replace(/&#x3D;/g, '=')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** The first flow form of a page (settings has one per group: `group` picks it by its method button). */
function formOf(html: string, group?: string): PageForm {
  const forms = [...html.matchAll(/<form method="post" action="([^"]+)" class="flow-form"[^>]*>([\s\S]*?)<\/form>/g)];
  const chosen = group === undefined ? forms[0] : forms.find((form) => form[2]!.includes(`name="method" value="${group}"`));
  expect(chosen, html).toBeDefined();
  const csrfToken = /name="csrf_token" value="([^"]+)"/.exec(chosen![2]!)?.[1];
  expect(csrfToken).toBeDefined();
  return { action: pathOf(unescapeHtml(chosen![1]!)), csrfToken: unescapeHtml(csrfToken!) };
}

/** The target of a redirect (the pages answer 303, the self-service endpoints 302). */
function redirectOf(response: HttpResponse): string {
  expect([302, 303], response.text).toContain(response.status);
  return pathOf(response.headers.get('location')!);
}

/** Opens a built-in page as a navigating browser: /ui/<kind> → a new browser flow → /ui/<kind>?flow=; returns its form. */
async function openPage(browser: Browser, kind: 'login' | 'registration' | 'settings', group?: string): Promise<PageForm> {
  const html = { accept: 'text/html' };
  const init = redirectOf(await browser.get(`/ui/${kind}`, html));
  const page = await browser.get(redirectOf(await browser.get(init, html)), html);
  expect(page.status, page.text).toBe(200);
  return formOf(page.text, group);
}

/** A submit answered as JSON (no Accept: text/html): the status and the error id, if any. */
function outcome(response: HttpResponse): [number, string | undefined] {
  return [response.status, (response.body as { error?: { id?: string } } | undefined)?.error?.id];
}

/** Whether a fresh browser signs in with these credentials (a refused password is a 302 back to the form too). */
async function signsIn(identifier: string, password: string): Promise<boolean> {
  const browser = new Browser(app);
  await browser.login(identifier, password);
  return (await browser.get('/sessions/whoami')).status === 200;
}

/** Another browser's attempts at a form: with no cookie at all, and with a CSRF cookie of its own. */
async function strangers(): Promise<Browser[]> {
  const own = new Browser(app);
  await own.startFlow('login');
  expect(own.jar.get('service_csrf_token')).toBeDefined();
  return [new Browser(app), own];
}

describe('a browser flow of the built-in pages, submitted from another browser', () => {
  it('login: refused with 403 security_csrf_violation, no session for the other browser; the first still signs in', async () => {
    await createPasswordIdentity(app, 'alice@example.com');
    const alice = new Browser(app);
    const form = await openPage(alice, 'login');
    const fields = { csrf_token: form.csrfToken, method: 'password', password_identifier: 'alice@example.com', password: GOOD_PASSWORD };
    for (const stranger of await strangers()) {
      expect(outcome(await stranger.postForm(form.action, fields))).toEqual([403, 'security_csrf_violation']);
      expect(stranger.jar.get('service_session')).toBeUndefined();
      expect((await stranger.get('/sessions/whoami')).status).toBe(401);
      // As a navigating browser: the error page, whose stored error is the same.
      const navigating = await stranger.postForm(form.action, fields, { accept: 'text/html' });
      expect(navigating.status).toBe(302);
      const location = new URL(navigating.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(app.running.config.selfService.urls.error);
      const stored = await app.public.get<{ errors: { id: string; code: number }[] }>(
        `/self-service/errors?error=${location.searchParams.get('error')}`,
      );
      expect(stored.body.errors).toEqual([expect.objectContaining({ id: 'security_csrf_violation', code: 403 })]);
      expect(stranger.jar.get('service_session')).toBeUndefined();
    }
    const signedIn = await alice.postForm(form.action, fields);
    expect(signedIn.status, signedIn.text).toBe(302);
    expect((await alice.get<SessionShape>('/sessions/whoami')).body.identity.traits['email']).toBe('alice@example.com');
  });

  it('registration: refused with 403 security_csrf_violation, no identity is created; the first browser still registers', async () => {
    const owner = new Browser(app);
    const form = await openPage(owner, 'registration');
    const fields = { csrf_token: form.csrfToken, method: 'password', 'traits.email': 'newcomer@example.com', password: GOOD_PASSWORD };
    for (const stranger of await strangers()) {
      expect(outcome(await stranger.postForm(form.action, fields))).toEqual([403, 'security_csrf_violation']);
      expect(stranger.jar.get('service_session')).toBeUndefined();
    }
    const identities = await app.admin.get<{ traits: { email: string } }[]>('/identities');
    expect(identities.body.map((identity) => identity.traits.email)).not.toContain('newcomer@example.com');
    const registered = await owner.postForm(form.action, fields);
    expect(registered.status, registered.text).toBe(302);
    const after = await app.admin.get<{ traits: { email: string } }[]>('/identities');
    expect(after.body.map((identity) => identity.traits.email)).toContain('newcomer@example.com');
  });

  it('settings: refused from another browser, even one carrying the session cookie but not the CSRF cookie; the password stays', async () => {
    await createPasswordIdentity(app, 'settler@example.com');
    const owner = new Browser(app);
    expect((await owner.login('settler@example.com', GOOD_PASSWORD)).status).toBe(302);
    const form = await openPage(owner, 'settings', 'password');
    const fields = { csrf_token: form.csrfToken, method: 'password', password: 'a brand new passphrase 77' };

    // Without the owner's session: no session, no settings (401), nothing changed.
    for (const stranger of await strangers()) {
      expect(outcome(await stranger.postForm(form.action, fields))).toEqual([401, 'session_inactive']);
    }
    // The owner's session cookie alone (what a cross-site post could carry) is a CSRF violation.
    const sessionOnly = new Browser(app);
    const headers = { cookie: `service_session=${owner.jar.get('service_session')!.value}` };
    expect(outcome(await sessionOnly.postForm(form.action, fields, headers))).toEqual([403, 'security_csrf_violation']);
    // The same person signed in on another browser (its own session and CSRF cookie): still not this browser's flow.
    const secondDevice = new Browser(app);
    expect((await secondDevice.login('settler@example.com', GOOD_PASSWORD)).status).toBe(302);
    expect(outcome(await secondDevice.postForm(form.action, fields))).toEqual([403, 'security_csrf_violation']);
    // Another identity's browser cannot use this flow either.
    await createPasswordIdentity(app, 'other@example.com');
    const other = new Browser(app);
    expect((await other.login('other@example.com', GOOD_PASSWORD)).status).toBe(302);
    expect(outcome(await other.postForm(form.action, fields))).toEqual([403, 'security_identity_mismatch']);

    expect(await signsIn('settler@example.com', GOOD_PASSWORD)).toBe(true);
    expect(await signsIn('settler@example.com', 'a brand new passphrase 77')).toBe(false);
    const changed = await owner.postForm(form.action, fields);
    expect(changed.status, changed.text).toBe(302);
    expect(await signsIn('settler@example.com', 'a brand new passphrase 77')).toBe(true);
  });
});
