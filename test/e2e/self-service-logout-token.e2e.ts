import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { Browser, createPasswordIdentity, GOOD_PASSWORD } from '../support/self-service.js';

/**
 * Logout by a cross-site GET: the later Kratos form (`GET /self-service/logout/browser` answers the
 * session's `logout_url` and `logout_token`, `GET /self-service/logout?token=` ends it) and
 * SELFSERVICE_LOGOUT_REQUIRE_TOKEN, which makes the documented `GET /self-service/browser/flows/logout`
 * need the token too. Two browsers are two cookie jars.
 */
let app: TestApp;
/** The same database, with the token mandatory on the documented route. */
let strict: TestApp;

beforeAll(async () => {
  app = await bootApp({ SELFSERVICE_ALLOWED_RETURN_URLS: 'https://app.example.com/' });
  strict = await bootApp(
    { SELFSERVICE_LOGOUT_REQUIRE_TOKEN: 'true', SELFSERVICE_ALLOWED_RETURN_URLS: 'https://app.example.com/' },
    { databaseUrl: app.databaseUrl },
  );
});

afterAll(async () => {
  await strict?.close();
  await app?.close();
});

interface LogoutUrl {
  logout_url: string;
  logout_token: string;
}

async function loggedIn(target: TestApp, email: string): Promise<Browser> {
  await createPasswordIdentity(app, email);
  const browser = new Browser(target);
  await browser.login(email, GOOD_PASSWORD);
  expect((await browser.get('/sessions/whoami')).status).toBe(200);
  return browser;
}

function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

describe('GET /self-service/logout/browser', () => {
  it('answers 401 session_inactive without a session', async () => {
    const response = await new Browser(app).get<{ error: { id: string } }>('/self-service/logout/browser');
    expect(response.status).toBe(401);
    expect(response.body.error.id).toBe('session_inactive');
  });

  it('answers the logout URL and token of the browser session; the URL ends it and goes to return_to', async () => {
    const browser = await loggedIn(app, 'lou@example.com');
    const response = await browser.get<LogoutUrl>('/self-service/logout/browser');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['logout_token', 'logout_url']);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const url = new URL(response.body.logout_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${app.running.config.urls.issuer}/self-service/logout`);
    expect(url.searchParams.get('token')).toBe(response.body.logout_token);

    const logout = await browser.get(`${pathOf(response.body.logout_url)}&return_to=${encodeURIComponent('https://app.example.com/bye')}`);
    expect(logout.status).toBe(302);
    expect(logout.headers.get('location')).toBe('https://app.example.com/bye');
    expect(browser.jar.get('service_session')).toBeUndefined();
    expect((await browser.get('/sessions/whoami')).status).toBe(401);
  });
});

describe('GET /self-service/logout?token=', () => {
  it("another browser cannot end a session with its token, nor its own with another session's token", async () => {
    const victim = await loggedIn(app, 'vic@example.com');
    const attacker = await loggedIn(app, 'att@example.com');
    const { logout_url: victimUrl } = (await victim.get<LogoutUrl>('/self-service/logout/browser')).body;

    const forged = await attacker.get<{ error: { id: string } }>(pathOf(victimUrl));
    expect(forged.status).toBe(403);
    expect(forged.body.error.id).toBe('security_csrf_violation');
    expect((await victim.get('/sessions/whoami')).status).toBe(200);
    expect((await attacker.get('/sessions/whoami')).status).toBe(200);

    // A cross-site navigation without any token ends nothing either.
    const bare = await victim.get<{ error: { id: string } }>('/self-service/logout');
    expect(bare.status).toBe(400);
    expect(bare.body.error.id).toBe('invalid_request');
    const wrong = await victim.get('/self-service/logout?token=not-the-token');
    expect(wrong.status).toBe(403);
    expect((await victim.get('/sessions/whoami')).status).toBe(200);
  });

  it('a token names one session: after a new login the old one ends nothing', async () => {
    const browser = await loggedIn(app, 'two@example.com');
    const first = (await browser.get<LogoutUrl>('/self-service/logout/browser')).body;
    expect((await browser.get(pathOf(first.logout_url))).status).toBe(302);
    await browser.login('two@example.com', GOOD_PASSWORD);
    expect((await browser.get(pathOf(first.logout_url))).status).toBe(403);
    expect((await browser.get('/sessions/whoami')).status).toBe(200);
  });

  it('without a session it only sends the browser on', async () => {
    const response = await new Browser(app).get('/self-service/logout?token=anything');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(app.running.config.selfService.defaultBrowserReturnUrl);
  });
});

describe('SELFSERVICE_LOGOUT_REQUIRE_TOKEN on the seed route', () => {
  it('off (the default): the seed route ends the session without a token', async () => {
    const browser = await loggedIn(app, 'seed@example.com');
    expect((await browser.get('/self-service/browser/flows/logout')).status).toBe(302);
    expect((await browser.get('/sessions/whoami')).status).toBe(401);
  });

  it('on: the seed route needs the session logout token; without it or with another, nothing ends', async () => {
    const browser = await loggedIn(strict, 'strict@example.com');
    const other = await loggedIn(strict, 'strict-other@example.com');
    const otherToken = (await other.get<LogoutUrl>('/self-service/logout/browser')).body.logout_token;
    for (const query of ['', '?token=', `?token=${encodeURIComponent(otherToken)}`]) {
      const refused = await browser.get<{ error: { id: string } }>(`/self-service/browser/flows/logout${query}`);
      expect(refused.status, query).toBe(403);
      expect(refused.body.error.id).toBe('security_csrf_violation');
    }
    expect((await browser.get('/sessions/whoami')).status).toBe(200);
    const { logout_token: token } = (await browser.get<LogoutUrl>('/self-service/logout/browser')).body;
    expect((await browser.get(`/self-service/browser/flows/logout?token=${encodeURIComponent(token)}`)).status).toBe(302);
    expect((await browser.get('/sessions/whoami')).status).toBe(401);
    expect((await other.get('/sessions/whoami')).status).toBe(200);
  });
});
