import { createServer, type Server } from 'node:http';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/common/net/free-port.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';
import { bootApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.js';
import { pkcePair } from '../support/oauth-browser.js';

/**
 * The hand-off and the pages the service renders, driven by a real browser (Debian's Chromium through
 * playwright-core): redirects, cookies across sites, the form_post page's script under its CSP, and
 * the front-channel logout page's frames and script. The service runs on `localhost`, the login,
 * consent and logout apps and the relying party on `127.0.0.1`: another site, as in production.
 */
const haveChromium = chromiumAvailable('oauth-browser-chromium');

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly form: URLSearchParams;
}

/**
 * The deployer's login, consent and logout apps and one relying party, on one loopback server. The
 * apps answer each challenge through the admin API and send the browser on to `redirect_to`, as a
 * real login app would; every request is recorded.
 */
class Apps {
  readonly seen: Seen[] = [];
  /** `skip` of each login request the login app read. */
  readonly loginSkips: boolean[] = [];
  private server: Server | undefined;
  origin = '';

  constructor(private readonly adminUrl: () => string) {}

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const url = new URL(request.url ?? '/', this.origin);
        this.seen.push({
          method: request.method ?? '',
          path: url.pathname,
          query: url.searchParams,
          form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
        });
        this.answer(url)
          .then((location) => {
            if (location === undefined) {
              response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>ok</title><p>ok</p>');
            } else {
              response.writeHead(302, { location }).end();
            }
          })
          .catch((error: unknown) => response.writeHead(500).end(String(error)));
      });
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    this.origin = `http://127.0.0.1:${address.port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server === undefined ? resolve() : this.server.close(() => resolve())));
  }

  requestsTo(path: string): Seen[] {
    return this.seen.filter((request) => request.path === path);
  }

  private async answer(url: URL): Promise<string | undefined> {
    switch (url.pathname) {
      case '/login': {
        const challenge = url.searchParams.get('login_challenge')!;
        const request = await this.admin('GET', `/oauth2/auth/requests/login?login_challenge=${encodeURIComponent(challenge)}`);
        const { skip, subject } = request as { skip: boolean; subject: string };
        this.loginSkips.push(skip);
        const body = skip ? { subject } : { subject: 'alice', remember: true, remember_for: 3600 };
        return this.decide('login', challenge, body);
      }
      case '/consent': {
        const challenge = url.searchParams.get('consent_challenge')!;
        const request = await this.admin('GET', `/oauth2/auth/requests/consent?consent_challenge=${encodeURIComponent(challenge)}`);
        const { requested_scope } = request as { requested_scope: string[] };
        return this.decide('consent', challenge, { grant_scope: requested_scope });
      }
      case '/logout':
        return this.decide('logout', url.searchParams.get('logout_challenge')!, undefined);
      default:
        return undefined;
    }
  }

  private async decide(kind: string, challenge: string, body: unknown): Promise<string> {
    const path = `/oauth2/auth/requests/${kind}/accept?${kind}_challenge=${encodeURIComponent(challenge)}`;
    return ((await this.admin('PUT', path, body)) as { redirect_to: string }).redirect_to;
  }

  private async admin(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.adminUrl()}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
    return response.json();
  }
}

describe.skipIf(!haveChromium)('a real browser through the hand-off and the rendered pages', () => {
  let app: TestApp;
  let apps: Apps;
  let browser: Browser;
  let issuer: string;
  let client: { client_id: string; client_secret: string };

  beforeAll(async () => {
    apps = new Apps(() => app.running.urls.admin!);
    await apps.start();
    const port = await freePort();
    issuer = `http://localhost:${port}`;
    app = await bootApp({
      PUBLIC_PORT: String(port),
      ISSUER_URL: issuer,
      URLS_LOGIN: `${apps.origin}/login`,
      URLS_CONSENT: `${apps.origin}/consent`,
      URLS_LOGOUT: `${apps.origin}/logout`,
      URLS_POST_LOGOUT_REDIRECT: `${apps.origin}/bye`,
    });
    const created = await app.admin.post<{ client_id: string; client_secret: string }>('/clients', {
      json: {
        redirect_uris: [`${apps.origin}/cb`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        scope: 'openid',
        token_endpoint_auth_method: 'client_secret_post',
        frontchannel_logout_uri: `${apps.origin}/fc`,
      },
    });
    expect(created.status, created.text).toBe(201);
    client = created.body;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await apps?.stop();
  });

  /** Console errors of a page (CSP violations among them). */
  function consoleErrors(page: Page): string[] {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    return errors;
  }

  it('runs a code flow with PKCE and form_post end to end, remembers the login, then logs out on the front channel', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = consoleErrors(page);
    const pkce = pkcePair();
    const authorize = (state: string): string =>
      `${issuer}/oauth2/auth?${new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: `${apps.origin}/cb`,
        response_type: 'code',
        response_mode: 'form_post',
        scope: 'openid',
        state,
        nonce: 'nonce-0123456789',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      }).toString()}`;

    // The form_post page's own script posts the response to the client: only the CSP-allowed script can.
    await page.goto(authorize('state-one-0123'));
    await page.waitForURL(`${apps.origin}/cb`);
    const [posted] = apps.requestsTo('/cb');
    expect(posted?.method).toBe('POST');
    expect(posted?.form.get('state')).toBe('state-one-0123');
    const code = posted!.form.get('code')!;
    expect(code).toMatch(/^lk_ac_/);
    expect(apps.loginSkips).toEqual([false]);

    const exchanged = await app.public.post<{ id_token: string }>('/oauth2/token', {
      form: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: `${apps.origin}/cb`,
        client_id: client.client_id,
        client_secret: client.client_secret,
        code_verifier: pkce.verifier,
      },
    });
    expect(exchanged.status, exchanged.text).toBe(200);
    const jwks = createRemoteJWKSet(new URL(`${app.running.urls.public!}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(exchanged.body.id_token, jwks, { issuer, audience: client.client_id });
    expect(payload['nonce']).toBe('nonce-0123456789');
    expect(typeof payload['sid']).toBe('string');

    // The remembered login came back with the browser from another site: the login app sees skip.
    await page.goto(authorize('state-two-0123'));
    await page.waitForURL(`${apps.origin}/cb`);
    expect(apps.loginSkips).toEqual([false, true]);
    expect(apps.requestsTo('/cb').map((request) => request.form.get('state'))).toEqual(['state-one-0123', 'state-two-0123']);

    // Logout: the logout app accepts, the completion page frames the client's front-channel URI and
    // its script moves on to the post-logout redirect.
    await page.goto(`${issuer}/oauth2/sessions/logout`);
    await page.waitForURL(`${apps.origin}/bye`);
    const [frame] = apps.requestsTo('/fc');
    expect(frame?.query.get('iss')).toBe(issuer);
    expect(frame?.query.get('sid')).toBe(payload['sid']);
    expect(errors.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);

    // The session is gone: the next authorization asks the login app again, without skip.
    await page.goto(authorize('state-three-01'));
    await page.waitForURL(`${apps.origin}/cb`);
    expect(apps.loginSkips).toEqual([false, true, false]);
    await context.close();
  });
});
