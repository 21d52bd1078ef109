import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/common/net/free-port.js';
import { bootApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.js';
import { HttpClient } from '../support/http.js';
import { runService, type ServiceProcess } from '../support/process.js';

/**
 * `npm run demo` (scripts/demo.mjs) against a running service: it registers its client, prints one
 * URL, and that URL starts an authorization that lands on the built-in sign-in.
 */
describe('npm run demo', () => {
  let app: TestApp;
  let demo: ServiceProcess | undefined;

  beforeAll(async () => {
    const port = await freePort();
    app = await bootApp({ PUBLIC_PORT: String(port), ISSUER_URL: `http://127.0.0.1:${port}` });
  });

  afterAll(async () => {
    demo?.child.kill('SIGTERM');
    await demo?.exited;
    await app?.close();
  });

  it('refuses to start without an admin token, saying why', async () => {
    const refused = runService({ LATCHKEY_URL: app.running.urls.public!, LATCHKEY_ADMIN_URL: app.running.urls.admin! }, 'scripts/demo.mjs');
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toContain('ADMIN_TOKEN');
  });

  it('registers its client and prints the one URL that walks the sign-in', async () => {
    demo = runService(
      { LATCHKEY_URL: app.running.urls.public!, LATCHKEY_ADMIN_URL: app.running.urls.admin!, ADMIN_TOKEN: TEST_ADMIN_TOKEN },
      'scripts/demo.mjs',
    );
    const [, url] = await demo.waitForOutput(/Open (http:\/\/127\.0\.0\.1:\d+\/) /, 30_000);
    const clients = await app.admin.get<{ client_name: string }[]>('/clients');
    expect(clients.body.map((client) => client.client_name)).toContain('Latchkey demo app');

    const start = await new HttpClient(url!.replace(/\/$/, '')).get('/');
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.pathname).toBe('/oauth2/auth');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    const handedOff = await app.public.get(`${authorize.pathname}${authorize.search}`);
    expect(handedOff.status).toBe(302);
    expect(new URL(handedOff.headers.get('location')!).pathname).toBe('/ui/oauth2/login');
  });
});
