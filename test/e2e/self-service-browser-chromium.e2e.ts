import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/common/net/free-port.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';
import { bootApp, type TestApp } from '../support/app.js';

/**
 * Browser self-service flows driven by a real browser (Debian's Chromium through playwright-core),
 * with a UI app that renders each flow's `ui` nodes as an HTML form, as a deployer's UI does: the
 * CSRF cookie and form token, the redirects after success and failure, the session cookie, whoami and
 * browser logout, all as a browser really handles them. UI and service are on the same site, as
 * Kratos-style deployments require (the CSRF cookie is SameSite).
 */
const haveChromium = chromiumAvailable('self-service-browser-chromium');

interface UiNode {
  readonly attributes: { readonly name: string; readonly type: string; readonly value?: unknown };
  readonly messages: readonly { readonly id: number }[] | null;
}
interface Flow {
  readonly id: string;
  readonly ui: {
    readonly action: string;
    readonly method: string;
    readonly messages?: readonly { readonly id: number }[];
    readonly nodes: readonly UiNode[];
  };
}

const escape = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The deployer's self-service UI: fetches each flow by id and renders its form; records the message ids it showed. */
class SelfServiceUi {
  /** Message ids (flow-level and node-level) of every flow page rendered, in order. */
  readonly shown: number[][] = [];
  readonly errors: string[] = [];
  private server: Server | undefined;
  origin = '';

  constructor(private readonly publicUrl: () => string) {}

  async start(port: number): Promise<void> {
    this.server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', this.origin);
      this.page(url)
        .then((html) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html))
        .catch((error: unknown) => response.writeHead(500).end(String(error)));
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server === undefined ? resolve() : this.server.close(() => resolve())));
  }

  private async page(url: URL): Promise<string> {
    const kind = /^\/ui\/(login|registration)$/.exec(url.pathname)?.[1];
    if (kind === undefined) {
      if (url.pathname === '/ui/error') this.errors.push(url.searchParams.get('error') ?? '');
      return `<!doctype html><title>${escape(url.pathname)}</title><p id="where">${escape(url.pathname)}</p>`;
    }
    const response = await fetch(
      `${this.publicUrl()}/self-service/${kind}/flows?id=${encodeURIComponent(url.searchParams.get('flow') ?? '')}`,
    );
    if (!response.ok) throw new Error(`flow fetch ${response.status}`);
    const flow = (await response.json()) as Flow;
    this.shown.push([...(flow.ui.messages ?? []), ...flow.ui.nodes.flatMap((node) => node.messages ?? [])].map((message) => message.id));
    const inputs = flow.ui.nodes.map(({ attributes: { name, type, value } }) =>
      type === 'submit'
        ? `<button type="submit" name="${escape(name)}" value="${escape(String(value))}">${escape(name)}</button>`
        : `<input name="${escape(name)}" type="${escape(type)}" value="${escape(value === undefined ? '' : String(value))}">`,
    );
    return `<!doctype html><title>${kind}</title><form action="${escape(flow.ui.action)}" method="${escape(flow.ui.method)}">${inputs.join('')}</form>`;
  }
}

describe.skipIf(!haveChromium)('a real browser through the self-service browser flows', () => {
  let app: TestApp;
  let ui: SelfServiceUi;
  let browser: Browser;
  let issuer: string;

  beforeAll(async () => {
    ui = new SelfServiceUi(() => app.running.urls.public!);
    const [servicePort, uiPort] = [await freePort(), await freePort()];
    await ui.start(uiPort);
    issuer = `http://127.0.0.1:${servicePort}`;
    app = await bootApp({
      PUBLIC_PORT: String(servicePort),
      ISSUER_URL: issuer,
      URLS_SELFSERVICE_LOGIN_UI: `${ui.origin}/ui/login`,
      URLS_SELFSERVICE_REGISTRATION_UI: `${ui.origin}/ui/registration`,
      URLS_SELFSERVICE_ERROR_UI: `${ui.origin}/ui/error`,
      SELFSERVICE_DEFAULT_BROWSER_RETURN_URL: `${ui.origin}/home`,
      SELFSERVICE_ALLOWED_RETURN_URLS: `${ui.origin}/`,
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await ui?.stop();
  });

  async function whoami(page: Page): Promise<{ status: number; email?: string }> {
    const response = await page.goto(`${issuer}/sessions/whoami`);
    const status = response!.status();
    if (status !== 200) return { status };
    const body = (await response!.json()) as { identity: { traits: { email: string } } };
    return { status, email: body.identity.traits.email };
  }

  it('registers, logs out, fails a login, logs in, and refuses a form whose CSRF token was tampered with', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();

    // Registration through the rendered form: a session cookie comes back with the redirect home.
    await page.goto(`${issuer}/self-service/registration/browser`);
    await page.waitForURL(new RegExp(`^${ui.origin}/ui/registration\\?flow=`));
    await page.fill('input[name="traits.email"]', 'lin@example.com');
    await page.fill('input[name="password"]', 'a long and unusual passphrase 42');
    await Promise.all([page.waitForURL(`${ui.origin}/home`), page.click('button[type="submit"]')]);
    expect(await whoami(page)).toEqual({ status: 200, email: 'lin@example.com' });
    const [session] = (await context.cookies(issuer)).filter((cookie) => cookie.name === 'service_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    // Browser logout: back to the allowed return_to, and the cookie no longer opens a session.
    await page.goto(`${issuer}/self-service/browser/flows/logout?return_to=${encodeURIComponent(`${ui.origin}/bye`)}`);
    expect(page.url()).toBe(`${ui.origin}/bye`);
    expect((await whoami(page)).status).toBe(401);

    // A wrong password sends the browser back to the form, which now shows 4000006.
    await page.goto(`${issuer}/self-service/login/browser`);
    await page.waitForURL(new RegExp(`^${ui.origin}/ui/login\\?flow=`));
    const flowUrl = page.url();
    await page.fill('input[name="password_identifier"]', 'lin@example.com');
    await page.fill('input[name="password"]', 'not the passphrase');
    await Promise.all([page.waitForURL(flowUrl), page.click('button[type="submit"]')]);
    expect(ui.shown.at(-1)).toContain(4000006);
    expect((await whoami(page)).status).toBe(401);

    // The right password: home, with a session.
    await page.goto(flowUrl);
    await page.fill('input[name="password_identifier"]', 'lin@example.com');
    await page.fill('input[name="password"]', 'a long and unusual passphrase 42');
    await Promise.all([page.waitForURL(`${ui.origin}/home`), page.click('button[type="submit"]')]);
    expect(await whoami(page)).toEqual({ status: 200, email: 'lin@example.com' });

    // A form whose CSRF token is not the browser's: the error UI, with a stored 403 security_csrf_violation.
    await page.goto(`${issuer}/self-service/login/browser?refresh=true`);
    await page.waitForURL(new RegExp(`^${ui.origin}/ui/login\\?flow=`));
    const token = await page.inputValue('input[name="csrf_token"]');
    // The page script a UI would never run: swap in a token that is not the one of this browser's cookie.
    await page.evaluate(`document.querySelector('input[name="csrf_token"]').value = ${JSON.stringify(`${token.slice(0, -2)}xx`)}`);
    await page.fill('input[name="password_identifier"]', 'lin@example.com');
    await page.fill('input[name="password"]', 'a long and unusual passphrase 42');
    await Promise.all([page.waitForURL(new RegExp(`^${ui.origin}/ui/error\\?error=`)), page.click('button[type="submit"]')]);
    const stored = await app.public.get<{ errors: { code: number; id: string }[] }>(
      `/self-service/errors?error=${encodeURIComponent(ui.errors.at(-1)!)}`,
    );
    expect(stored.status).toBe(200);
    expect(stored.body.errors).toEqual([expect.objectContaining({ code: 403, id: 'security_csrf_violation' })]);
    await context.close();
  });
});
