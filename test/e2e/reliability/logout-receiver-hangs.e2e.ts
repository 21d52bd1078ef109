import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackchannelLogoutNotifier } from '../../../src/oauth/logout/backchannel-logout.notifier.js';
import { bootApp, type TestApp } from '../../support/app.js';
import { LogoutReceiver } from '../../support/logout-receiver.js';
import { OAuthBrowser, queryParam, registerClient, signInForIdToken, type RegisteredClient } from '../../support/oauth-browser.js';

const LOGGED_OUT = 'https://apps.example/logged-out';

/**
 * A relying party's back-channel logout endpoint that accepts the connection and never answers: the
 * browser's logout completes and the login session is gone while that delivery is still open, and
 * the service gives the delivery up after its outbound timeout instead of holding it forever.
 */
describe('a back-channel logout receiver that hangs', () => {
  let app: TestApp;
  let receiver: LogoutReceiver;

  beforeAll(async () => {
    receiver = await LogoutReceiver.start();
    app = await bootApp({
      ISSUER_URL: 'https://id.example',
      URLS_LOGIN: 'https://apps.example/login',
      URLS_CONSENT: 'https://apps.example/consent',
      URLS_LOGOUT: 'https://apps.example/logout',
      URLS_POST_LOGOUT_REDIRECT: LOGGED_OUT,
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      // Long enough that the logout surely ends first, short enough for the give-up to be seen.
      OUTBOUND_TIMEOUT_MS: '1500',
    });
  });

  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  async function signIn(browser: OAuthBrowser, client: RegisteredClient, subject: string): Promise<void> {
    await signInForIdToken(app, browser, client, subject);
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
    expect(response.status, response.text).toBe(200);
    return response.body.skip;
  }

  it('ends the local session at once and gives the delivery up later', async () => {
    const path = `/backchannel/${randomBytes(6).toString('hex')}`;
    receiver.respond(path, 'hold');
    const host = `rp-${randomBytes(4).toString('hex')}.example`;
    const client = await registerClient(app, { redirect_uris: [`https://${host}/cb`], backchannel_logout_uri: receiver.url(path) });
    const browser = new OAuthBrowser(app);
    await signIn(browser, client, `user-${randomBytes(6).toString('hex')}`);
    expect(await loginSkips(browser, client)).toBe(true);

    const start = await browser.get('/oauth2/sessions/logout');
    expect(start.status, start.text).toBe(302);
    const challenge = queryParam(start.headers.get('location')!, 'logout_challenge')!;
    const accepted = await app.admin.put<{ redirect_to: string }>(
      `/oauth2/auth/requests/logout/accept?logout_challenge=${encodeURIComponent(challenge)}`,
    );
    expect(accepted.status, accepted.text).toBe(200);
    const done = await browser.get(accepted.body.redirect_to);
    expect(done.status, done.text).toBe(302);
    expect(done.headers.get('location')).toBe(LOGGED_OUT);

    // The browser has its answer and the session is over while the receiver still holds the delivery.
    const held = await receiver.waitForHeld(path);
    expect(held.isOpen()).toBe(true);
    expect(await loginSkips(browser, client)).toBe(false);

    // The sender does not wait forever: the delivery settles and the connection is dropped unanswered
    // (the close reaches the receiver a moment later; the test timeout bounds the wait).
    await app.running.app.get(BackchannelLogoutNotifier).idle();
    while (held.isOpen()) await new Promise((resolve) => setTimeout(resolve, 20));
  }, 20_000);
});
