import { AdminApi, Configuration } from '@ory/kratos-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.js';
import { apiLogin, createPasswordIdentity, GOOD_PASSWORD, type FlowShape } from '../support/self-service.js';

/**
 * Kratos v0.6 serves the schema, flow and error reads on its admin port too, and its generated SDK
 * (`@ory/kratos-client` 0.6.3-alpha.1, the version whose API we serve) calls them there: the SDK's AdminApi
 * against the admin listener, with the admin token.
 */

let app: TestApp;
let admin: AdminApi;
let anonymous: AdminApi;

beforeAll(async () => {
  app = await bootApp();
  const basePath = app.running.urls.admin!.replace(/\/$/, '');
  admin = new AdminApi(new Configuration({ basePath, baseOptions: { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } } }));
  anonymous = new AdminApi(new Configuration({ basePath }));
});

afterAll(async () => {
  await app?.close();
});

/** The status an SDK call failed with (axios rejects every non-2xx). */
async function failureStatus(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    return (error as { response?: { status: number } }).response?.status;
  }
}

async function apiFlow(kind: string, headers: Record<string, string> = {}): Promise<FlowShape> {
  const init = await app.public.get<FlowShape>(`/self-service/${kind}/api`, { headers });
  expect(init.status, init.text).toBe(200);
  return init.body;
}

describe('@ory/kratos-client AdminApi on the admin listener', () => {
  it('getSchema', async () => {
    const { data, status } = await admin.getSchema('default');
    expect(status).toBe(200);
    expect((data as { properties: { traits: unknown } }).properties.traits).toBeDefined();
    expect(await failureStatus(admin.getSchema('no-such-schema'))).toBe(404);
  });

  it('getSelfServiceLoginFlow, RegistrationFlow, RecoveryFlow, VerificationFlow', async () => {
    const login = await apiFlow('login');
    expect((await admin.getSelfServiceLoginFlow(login.id)).data.id).toBe(login.id);
    const registration = await apiFlow('registration');
    expect((await admin.getSelfServiceRegistrationFlow(registration.id)).data.id).toBe(registration.id);
    const recovery = await apiFlow('recovery');
    expect((await admin.getSelfServiceRecoveryFlow(recovery.id)).data.id).toBe(recovery.id);
    const verification = await apiFlow('verification');
    expect((await admin.getSelfServiceVerificationFlow(verification.id)).data.id).toBe(verification.id);
    expect(await failureStatus(admin.getSelfServiceLoginFlow('00000000-0000-4000-8000-000000000000'))).toBe(404);
  });

  it('getSelfServiceSettingsFlow needs no session on the admin listener, and names the identity', async () => {
    const email = `kratos-admin-${Date.now()}@example.com`;
    const identityId = await createPasswordIdentity(app, email);
    const login = await apiLogin(app, email, GOOD_PASSWORD);
    expect(login.status, login.text).toBe(200);
    const settings = await apiFlow('settings', { 'x-session-token': login.body.session_token });
    const { data } = await admin.getSelfServiceSettingsFlow(settings.id);
    expect(data.id).toBe(settings.id);
    expect(data.identity.id).toBe(identityId);
  });

  it('getSelfServiceError', async () => {
    const { data, status } = await admin.getSelfServiceError('stub:500');
    expect(status).toBe(200);
    expect(data.errors.length).toBeGreaterThan(0);
    expect(await failureStatus(admin.getSelfServiceError('00000000-0000-4000-8000-000000000000'))).toBe(404);
  });

  it('every one of them needs the admin credential there', async () => {
    const login = await apiFlow('login');
    expect(await failureStatus(anonymous.getSchema('default'))).toBe(401);
    expect(await failureStatus(anonymous.getSelfServiceLoginFlow(login.id))).toBe(401);
    expect(await failureStatus(anonymous.getSelfServiceSettingsFlow(login.id))).toBe(401);
    expect(await failureStatus(anonymous.getSelfServiceError('stub:500'))).toBe(401);
  });

  it('the admin paths also answer under /admin', async () => {
    const login = await apiFlow('login');
    expect((await app.admin.get(`/admin/self-service/login/flows?id=${login.id}`)).status).toBe(200);
    expect((await app.admin.get('/admin/schemas/default')).status).toBe(200);
  });
});
