import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/common/net/free-port.js';
import { bootApp, type TestApp } from '../support/app.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';
import { RelyingParty } from '../support/relying-party.js';
import { SmtpSink } from '../support/smtp-sink.js';

/**
 * The built-in sign-in pages in a real browser (Debian's Chromium through playwright-core), with a
 * relying party on another site that redeems codes with openid-client: sign-up, sign-in, consent and
 * back; the remembered second authorization; settings; logout; recovery through a real SMTP sink; a
 * first-party client; a denial. Every page is screenshotted under test/artifacts/ui/ and checked with
 * axe-core (no serious or critical violation), and no page may trip its Content Security Policy.
 */
const haveChromium = chromiumAvailable('ui-browser-chromium');
const ARTIFACTS = join(process.cwd(), 'test', 'artifacts', 'ui');
const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const EMAIL = 'ada.lovelace@example.com';
const FIRST_PASSWORD = 'analytical-Engine-1843';
const NEW_PASSWORD = 'difference-Engine-1822';

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

describe.skipIf(!haveChromium)('the built-in sign-in pages in a real browser', { timeout: 90_000 }, () => {
  let app: TestApp;
  let smtp: SmtpSink;
  let browser: Browser;
  let issuer: string;
  let rp: RelyingParty;
  let firstParty: RelyingParty;
  let context: BrowserContext;
  let page: Page;
  const cspErrors: string[] = [];
  /** Built-in pages the browser was shown (200 HTML under /ui/), in order. */
  const shown: string[] = [];

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    const port = await freePort();
    issuer = `http://localhost:${port}`;
    app = await bootApp({
      PUBLIC_PORT: String(port),
      ISSUER_URL: issuer,
      COURIER_SMTP_URL: smtp.url,
      COURIER_DISPATCH_INTERVAL_MS: '50',
      UI_PRODUCT_NAME: 'Example Corp',
    });
    rp = await relyingParty('Time Machine', {});
    firstParty = await relyingParty('Company Intranet', { first_party: true });
    await mkdir(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
    context = await browser.newContext();
    page = await watched(context);
  });

  afterAll(async () => {
    await browser?.close();
    await rp?.stop();
    await firstParty?.stop();
    await app?.close();
    await smtp?.close();
  });

  async function relyingParty(name: string, metadata: Record<string, unknown>): Promise<RelyingParty> {
    const party = new RelyingParty(issuer, 'openid profile email');
    await party.listen();
    const created = await app.admin.post<{ client_id: string; client_secret: string }>('/clients', {
      json: {
        client_name: name,
        redirect_uris: [party.redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        scope: 'openid profile email offline_access',
        token_endpoint_auth_method: 'client_secret_basic',
        policy_uri: 'https://time-machine.example/privacy',
        tos_uri: 'https://time-machine.example/terms',
        metadata,
      },
    });
    expect(created.status, created.text).toBe(201);
    party.useClient(created.body.client_id, created.body.client_secret);
    return party;
  }

  async function watched(browserContext: BrowserContext): Promise<Page> {
    const opened = await browserContext.newPage();
    opened.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
    });
    opened.on('response', (response) => {
      const url = new URL(response.url());
      if (
        url.origin === issuer &&
        url.pathname.startsWith('/ui/') &&
        response.status() === 200 &&
        url.pathname !== '/ui/static/style.css'
      ) {
        shown.push(url.pathname);
      }
    });
    return opened;
  }

  /** Screenshot under test/artifacts/ui/, then axe-core in the page: no serious or critical violation. */
  async function check(on: Page, name: string): Promise<void> {
    await on.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
    // Evaluated through the DevTools protocol, which the page's CSP (no script at all) does not govern.
    await on.evaluate(await axeSource);
    const violations = await on.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run: () => Promise<{ violations: AxeViolation[] }> } }).axe;
      const result = await axe.run();
      return result.violations.map(({ id, impact, nodes }) => ({ id, impact, nodes: nodes.map(({ target }) => ({ target })) }));
    });
    expect(
      violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical'),
      `${name}: ${JSON.stringify(violations)}`,
    ).toEqual([]);
  }

  it('discovery lists the scopes and claims the built-in consent releases', async () => {
    const response = await app.public.get<{ scopes_supported: string[]; claims_supported: string[] }>('/.well-known/openid-configuration');
    expect(response.body.scopes_supported).toEqual(expect.arrayContaining(['profile', 'email']));
    expect(response.body.claims_supported).toEqual(expect.arrayContaining(['sub', 'email', 'email_verified', 'name', 'given_name']));
  });

  it('sign-up → sign-in → consent → back at the relying party, which reads the claims from the ID token and userinfo', async () => {
    await page.goto(`${rp.origin}/start`);
    await page.waitForURL((url) => url.pathname === '/ui/login');
    expect(page.url()).toContain('flow=');
    await check(page, 'login');

    await page.click('text=Create an account');
    await page.waitForURL((url) => url.pathname === '/ui/registration');
    await page.fill('input[name="traits.email"]', EMAIL);
    await page.fill('input[name="traits.name.first"]', 'Ada');
    await page.fill('input[name="traits.name.last"]', 'Lovelace');
    await page.fill('input[name="password"]', FIRST_PASSWORD);
    await check(page, 'registration');
    await page.click('button[name="method"][value="password"]');

    // Signed up and signed in: the OAuth2 login page asks whether to continue, and to remember.
    await page.waitForURL((url) => url.pathname === '/ui/oauth2/login');
    await check(page, 'oauth2-login');
    await page.check('input[name="remember"]');
    await page.click('button[name="decision"][value="accept"]');

    await page.waitForURL((url) => url.pathname === '/ui/oauth2/consent');
    expect(await page.locator('main').textContent()).toContain('Time Machine');
    await check(page, 'consent');
    await page.check('input[name="remember"]');
    await page.click('button[name="decision"][value="accept"]');

    await page.waitForSelector('#signed-in');
    const [result] = rp.results;
    expect(result?.error).toBeUndefined();
    expect(result?.userinfo).toMatchObject({ email: EMAIL, email_verified: false, given_name: 'Ada', family_name: 'Lovelace' });
    expect(result?.claims).toMatchObject({ email: EMAIL, name: 'Ada Lovelace' });
  });

  it('a second authorization skips login and consent (both remembered)', async () => {
    const before = shown.length;
    await page.goto(`${rp.origin}/start`);
    await page.waitForSelector('#signed-in');
    expect(rp.results).toHaveLength(2);
    expect(rp.results[1]?.userinfo['email']).toBe(EMAIL);
    expect(shown.slice(before)).toEqual([]);
  });

  it('a first-party client skips consent', async () => {
    const before = shown.length;
    await page.goto(`${firstParty.origin}/start`);
    await page.waitForSelector('#signed-in');
    expect(firstParty.results[0]?.userinfo['email']).toBe(EMAIL);
    expect(shown.slice(before)).toEqual([]);
  });

  it('prompt=login asks for the password again despite the remembered login; cancelling goes back to the client', async () => {
    await page.goto(`${rp.origin}/start?prompt=login`);
    await page.waitForURL((url) => url.pathname === '/ui/login');
    await page.fill('input[name="password_identifier"]', EMAIL);
    await page.fill('input[name="password"]', FIRST_PASSWORD);
    await page.click('button[name="method"][value="password"]');
    await page.waitForURL((url) => url.pathname === '/ui/oauth2/login');
    await page.click('button[name="decision"][value="reject"]');
    await page.waitForSelector('#error');
    expect(rp.results.at(-1)?.error).toBe('access_denied');
  });

  it('settings change the password, list the sessions and sign out everywhere else', async () => {
    // A second session of the same identity, on another device (an API client).
    const flow = await app.public.get<{ id: string }>('/self-service/login/api');
    const login = await app.public.post<{ session_token: string }>(`/self-service/login?flow=${flow.body.id}`, {
      json: { method: 'password', password_identifier: EMAIL, password: FIRST_PASSWORD },
    });
    expect(login.status, login.text).toBe(200);
    const elsewhere = { headers: { 'x-session-token': login.body.session_token } };
    expect((await app.public.get('/sessions/whoami', elsewhere)).status).toBe(200);

    await page.goto(`${issuer}/ui/settings`);
    await page.waitForURL((url) => url.pathname === '/ui/settings' && url.searchParams.has('flow'));
    await check(page, 'settings');
    const passwordForm = page.locator('form:has(input[name="password"])');
    await passwordForm.locator('input[name="password"]').fill(NEW_PASSWORD);
    await passwordForm.locator('button[name="method"]').click();
    await page.waitForSelector('[data-message-id="1050001"]');
    await check(page, 'settings-saved');
    expect(await page.locator('.sessions li').count()).toBe(2);
    await page.click('text=Sign out everywhere else');
    await page.waitForURL(`${issuer}/ui/settings/sessions`);
    await check(page, 'signed-out-elsewhere');
    expect((await app.public.get('/sessions/whoami', elsewhere)).status).toBe(401);
    await page.goto(`${issuer}/ui/settings`);
    await page.waitForURL((url) => url.pathname === '/ui/settings' && url.searchParams.has('flow'));
    expect(await page.locator('.sessions li').count()).toBe(1);
  });

  it('logout asks first, then ends the session; the next sign-in takes the new password', async () => {
    await page.goto(`${issuer}/oauth2/sessions/logout`);
    await page.waitForURL((url) => url.pathname === '/ui/oauth2/logout');
    await check(page, 'logout');
    await page.click('button[name="decision"][value="accept"]');
    await page.waitForURL((url) => url.pathname === '/oauth2/fallbacks/logout/callback');
    const cookies = await context.cookies(issuer);
    expect(cookies.map((cookie) => cookie.name)).not.toContain('service_session');

    // Signed out: the relying party's next authorization needs the sign-in form again.
    await page.goto(`${rp.origin}/start`);
    await page.waitForURL((url) => url.pathname === '/ui/login');
    await page.fill('input[name="password_identifier"]', EMAIL);
    await page.fill('input[name="password"]', FIRST_PASSWORD);
    await page.click('button[name="method"][value="password"]');
    await page.waitForSelector('[data-message-id="4000006"]');
    await check(page, 'login-failed');
    await page.fill('input[name="password_identifier"]', EMAIL);
    await page.fill('input[name="password"]', NEW_PASSWORD);
    await page.click('button[name="method"][value="password"]');
    await page.waitForURL((url) => url.pathname === '/ui/oauth2/login');
    await page.click('button[name="decision"][value="accept"]');
    // The consent was remembered for this client: straight back to it.
    await page.waitForSelector('#signed-in');
    expect(rp.results.at(-1)?.userinfo['email']).toBe(EMAIL);
  });

  it('denying consent sends the refusal back to the client', async () => {
    const revoked = await app.admin.delete(`/oauth2/auth/sessions/consent?subject=${String(rp.results[0]?.claims['sub'])}`);
    expect(revoked.status, revoked.text).toBe(204);
    await page.goto(`${rp.origin}/start`);
    // The last sign-in was not remembered (box left unticked): the login page asks again.
    await page.waitForURL((url) => url.pathname === '/ui/oauth2/login');
    await page.click('button[name="decision"][value="accept"]');
    await page.waitForURL((url) => url.pathname === '/ui/oauth2/consent');
    await page.click('button[name="decision"][value="reject"]');
    await page.waitForSelector('#error');
    expect(rp.results.at(-1)?.error).toBe('access_denied');
  });

  it('recovery through a real SMTP sink ends on the settings page, signed in', async () => {
    const other = await browser.newContext();
    const recovering = await watched(other);
    await recovering.goto(`${issuer}/ui/recovery`);
    await recovering.waitForURL((url) => url.pathname === '/ui/recovery' && url.searchParams.has('flow'));
    await check(recovering, 'recovery');
    await recovering.fill('input[name="email"]', EMAIL);
    await recovering.click('button[name="method"]');
    await recovering.waitForSelector('[data-message-id="1060002"]');
    await check(recovering, 'recovery-sent');
    const mail = await smtp.waitFor(EMAIL, (email) => /recover/i.test(email.subject));
    const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    await recovering.goto(link!);
    await recovering.waitForURL((url) => url.pathname === '/ui/settings');
    await recovering.waitForSelector('[data-message-id="1060001"]');
    await check(recovering, 'settings-after-recovery');
    await other.close();
  });

  it('the verification and error pages render and pass the checks', async () => {
    await page.goto(`${issuer}/ui/verification`);
    await page.waitForURL((url) => url.pathname === '/ui/verification' && url.searchParams.has('flow'));
    await check(page, 'verification');
    const response = await page.goto(`${issuer}/ui/error?error=stub:500`);
    expect(response?.status()).toBe(200);
    await check(page, 'error');
  });

  it('works with JavaScript switched off: sign-in, continue and consent are plain forms', async () => {
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const plain = await watched(noScript);
    const before = rp.results.length;
    await plain.goto(`${rp.origin}/start`);
    await plain.waitForURL((url) => url.pathname === '/ui/login');
    await plain.fill('input[name="password_identifier"]', EMAIL);
    await plain.fill('input[name="password"]', NEW_PASSWORD);
    await plain.click('button[name="method"][value="password"]');
    await plain.waitForURL((url) => url.pathname === '/ui/oauth2/login');
    await plain.click('button[name="decision"][value="accept"]');
    await plain.waitForURL((url) => url.pathname === '/ui/oauth2/consent');
    await plain.click('button[name="decision"][value="accept"]');
    await plain.waitForSelector('#signed-in');
    expect(rp.results).toHaveLength(before + 1);
    expect(rp.results.at(-1)?.userinfo['email']).toBe(EMAIL);
    await noScript.close();
  });

  it('login_hint fills the sign-in; the consent it leads to is answered only in this browser, not in another one', async () => {
    const asking = await browser.newContext();
    const asker = await watched(asking);
    const before = rp.results.length;
    await asker.goto(`${rp.origin}/start?login_hint=${encodeURIComponent(EMAIL)}`);
    await asker.waitForURL((url) => url.pathname === '/ui/login');
    expect(await asker.inputValue('input[name="password_identifier"]')).toBe(EMAIL);
    await asker.fill('input[name="password"]', NEW_PASSWORD);
    await asker.click('button[name="method"][value="password"]');
    await asker.waitForURL((url) => url.pathname === '/ui/oauth2/login');
    await asker.click('button[name="decision"][value="accept"]');
    await asker.waitForURL((url) => url.pathname === '/ui/oauth2/consent');
    const consentUrl = asker.url();
    const challenge = new URL(consentUrl).searchParams.get('consent_challenge')!;

    // Another browser (no session, cookies of its own) handed the consent's URL.
    const otherContext = await browser.newContext();
    const other = await otherContext.newPage();
    const shown = await other.goto(consentUrl);
    expect(shown?.status()).toBe(403);
    expect(await other.locator('.code').textContent()).toBe('403 request_forbidden');
    await other.goto(`${issuer}/ui/login`);
    await other.waitForURL((url) => url.pathname === '/ui/login' && url.searchParams.has('flow'));
    const token = await other.locator('input[name="csrf_token"]').getAttribute('value');
    const answered = await other.request.post(`${issuer}/ui/oauth2/consent`, {
      form: { csrf_token: token!, consent_challenge: challenge, decision: 'accept' },
      maxRedirects: 0,
    });
    expect(answered.status()).toBe(403);
    expect(await answered.text()).toContain('403 request_forbidden');
    await otherContext.close();

    await asker.click('button[name="decision"][value="accept"]');
    await asker.waitForSelector('#signed-in');
    expect(rp.results).toHaveLength(before + 1);
    expect(rp.results.at(-1)?.userinfo['email']).toBe(EMAIL);
    await asking.close();
  });

  it('no page tripped its Content Security Policy', () => {
    expect(cspErrors).toEqual([]);
  });
});
