import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/common/net/free-port.js';
import { bootApp, type TestApp } from '../support/app.js';
import { FakeRangeServer } from '../support/fake-range-server.js';
import { apiLogin, createPasswordIdentity, GOOD_PASSWORD, node, type FlowShape } from '../support/self-service.js';

const BREACHED = 'a long passphrase everyone leaked 1';
const CLEAN = 'a long passphrase nobody has leaked 2';

let range: FakeRangeServer;
let app: TestApp;

beforeAll(async () => {
  range = await FakeRangeServer.start();
  range.addBreached(BREACHED, 3);
  app = await bootApp({ PASSWORD_HIBP_ENABLED: 'true', PASSWORD_HIBP_URL: range.url, OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' });
});

afterAll(async () => {
  await app?.close();
  await range?.close();
});

async function register(target: TestApp, email: string, password: string): Promise<{ status: number; body: unknown }> {
  const init = await target.public.get<FlowShape>('/self-service/registration/api');
  const submit = await target.public.post(`/self-service/registration?flow=${init.body.id}`, {
    json: { method: 'password', password, traits: { email } },
  });
  return { status: submit.status, body: submit.body };
}

describe('breached-password check (PASSWORD_HIBP_ENABLED, k-anonymity range API)', () => {
  it('refuses a password the range API lists (4000005), sending only the first five hex digits of its SHA-1', async () => {
    const refused = await register(app, 'leaky@example.com', BREACHED);
    expect(refused.status).toBe(400);
    expect(node(refused.body as FlowShape, 'password')?.messages?.map((message) => message.id)).toEqual([4000005]);
    expect(range.paths.length).toBeGreaterThan(0);
    for (const path of range.paths) expect(path).toMatch(/^\/range\/[0-9A-F]{5}$/);
    expect((await register(app, 'careful@example.com', CLEAN)).status).toBe(200);
  });

  it('applies to a new password in settings too', async () => {
    await createPasswordIdentity(app, 'changer@example.com', CLEAN);
    const login = await apiLogin(app, 'changer@example.com', CLEAN);
    const headers = { 'x-session-token': login.body.session_token };
    const flow = await app.public.get<FlowShape>('/self-service/settings/api', { headers });
    const refused = await app.public.post<FlowShape>(`/self-service/settings?flow=${flow.body.id}`, {
      json: { method: 'password', password: BREACHED },
      headers,
    });
    expect(refused.status).toBe(400);
    expect(node(refused.body, 'password')?.messages?.map((message) => message.id)).toEqual([4000005]);
  });

  it('an unreachable range API accepts the password by default, and is a 503 when network errors are not ignored', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const lenient = await bootApp({ PASSWORD_HIBP_ENABLED: 'true', PASSWORD_HIBP_URL: nowhere, OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' });
    try {
      expect((await register(lenient, 'lenient@example.com', GOOD_PASSWORD)).status).toBe(200);
    } finally {
      await lenient.close();
    }
    const strict = await bootApp({
      PASSWORD_HIBP_ENABLED: 'true',
      PASSWORD_HIBP_URL: nowhere,
      PASSWORD_HIBP_IGNORE_NETWORK_ERRORS: 'false',
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
    });
    try {
      const refused = await register(strict, 'strict@example.com', GOOD_PASSWORD);
      expect(refused.status).toBe(503);
      expect((refused.body as { error: { code: number } }).error.code).toBe(503);
    } finally {
      await strict.close();
    }
  });
});
