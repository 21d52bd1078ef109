import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import {
  apiLogin,
  Browser,
  createPasswordIdentity,
  GOOD_PASSWORD,
  messageIds,
  node,
  nodeValue,
  type FlowShape,
  type SessionShape,
} from '../support/self-service.js';
import { ageSessionSignIn, expireFlow } from '../support/time-travel.js';

const NEW_PASSWORD = 'a completely different passphrase 7';

let app: TestApp;

beforeAll(async () => {
  app = await bootApp();
});

afterAll(async () => {
  await app?.close();
});

/** Makes the session older than SELFSERVICE_PRIVILEGED_SESSION_MAX_AGE (15 minutes). */

async function apiSession(email: string): Promise<{ token: string; session: SessionShape; headers: Record<string, string> }> {
  await createPasswordIdentity(app, email);
  const login = await apiLogin(app, email, GOOD_PASSWORD);
  expect(login.status).toBe(200);
  return { token: login.body.session_token, session: login.body.session, headers: { 'x-session-token': login.body.session_token } };
}

describe('settings flow (API)', () => {
  it('needs a session: 401 session_inactive without one', async () => {
    const init = await app.public.get<{ error: { id: string; code: number } }>('/self-service/settings/api');
    expect(init.status).toBe(401);
    expect(init.body.error).toMatchObject({ id: 'session_inactive', code: 401 });
  });

  it('shows the profile and password forms with the current traits, state show_form, and the identity', async () => {
    const { headers, session } = await apiSession('sam@example.com');
    const init = await app.public.get<FlowShape & { identity: { id: string } }>('/self-service/settings/api', { headers });
    expect(init.status).toBe(200);
    expect(init.body.state).toBe('show_form');
    expect(init.body.identity.id).toBe(session.identity.id);
    expect(init.body.ui.nodes.map((entry) => [entry.group, entry.attributes.name, entry.attributes.value])).toEqual([
      ['default', 'csrf_token', ''],
      ['profile', 'traits.email', 'sam@example.com'],
      ['profile', 'traits.name.first', undefined],
      ['profile', 'traits.name.last', undefined],
      ['profile', 'method', 'profile'],
      ['password', 'password', undefined],
      ['password', 'method', 'password'],
    ]);
    expect(node(init.body, 'method')?.meta.label).toMatchObject({ id: 1070003, text: 'Save' });
    const fetched = await app.public.get<FlowShape>(`/self-service/settings/flows?id=${init.body.id}`, { headers });
    expect(fetched.status).toBe(200);
  });

  it('profile: updates the traits (state success, 1050001); 200 {flow, identity}; whoami shows them at once', async () => {
    const { headers } = await apiSession('tim@example.com');
    expect((await app.public.get('/sessions/whoami', { headers })).status).toBe(200);
    const init = await app.public.get<FlowShape>('/self-service/settings/api', { headers });
    const submit = await app.public.post<{ flow: FlowShape; identity: { traits: Record<string, unknown> } }>(
      `/self-service/settings?flow=${init.body.id}`,
      {
        json: { method: 'profile', traits: { email: 'tim@example.com', name: { first: 'Tim' } } },
        headers,
      },
    );
    expect(submit.status).toBe(200);
    expect(submit.body.flow.state).toBe('success');
    expect(submit.body.flow.active).toBe('profile');
    expect(submit.body.flow.ui.messages?.map((message) => message.id)).toEqual([1050001]);
    expect(submit.body.identity.traits).toEqual({ email: 'tim@example.com', name: { first: 'Tim' } });
    const whoami = await app.public.get<SessionShape>('/sessions/whoami', { headers });
    expect(whoami.body.identity.traits).toEqual({ email: 'tim@example.com', name: { first: 'Tim' } });
  });

  it('profile: schema errors are shown on the node (400); a taken e-mail is 4000007', async () => {
    await createPasswordIdentity(app, 'taken@example.com');
    const { headers } = await apiSession('uma@example.com');
    const init = await app.public.get<FlowShape>('/self-service/settings/api', { headers });
    const invalid = await app.public.post<FlowShape>(`/self-service/settings?flow=${init.body.id}`, {
      json: { method: 'profile', traits: { email: 'not an email' } },
      headers,
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.state).toBe('show_form');
    expect(node(invalid.body, 'traits.email')?.messages?.map((message) => message.id)).toEqual([4000001]);
    const taken = await app.public.post<FlowShape>(`/self-service/settings?flow=${init.body.id}`, {
      json: { method: 'profile', traits: { email: 'taken@example.com' } },
      headers,
    });
    expect(taken.status).toBe(400);
    expect(messageIds(taken.body)).toEqual([4000007]);
    const method = await app.public.post<FlowShape>(`/self-service/settings?flow=${init.body.id}`, { json: { method: 'totp' }, headers });
    expect(messageIds(method.body)).toEqual([4010004]);
  });

  it('password: changes it with a fresh session; policy errors are 4000005', async () => {
    const { headers } = await apiSession('val@example.com');
    const init = await app.public.get<FlowShape>('/self-service/settings/api', { headers });
    const weak = await app.public.post<FlowShape>(`/self-service/settings?flow=${init.body.id}`, {
      json: { method: 'password', password: 'val@example.com' },
      headers,
    });
    expect(weak.status).toBe(400);
    expect(node(weak.body, 'password')?.messages?.map((message) => message.id)).toEqual([4000005]);
    const changed = await app.public.post<{ flow: FlowShape }>(`/self-service/settings?flow=${init.body.id}`, {
      json: { method: 'password', password: NEW_PASSWORD },
      headers,
    });
    expect(changed.status).toBe(200);
    expect(changed.body.flow.state).toBe('success');
    expect((await apiLogin(app, 'val@example.com', GOOD_PASSWORD)).status).toBe(400);
    expect((await apiLogin(app, 'val@example.com', NEW_PASSWORD)).status).toBe(200);
  });

  it('password and identifier changes need a privileged session: 403 session_refresh_required; other traits do not', async () => {
    const { headers, session } = await apiSession('wes@example.com');
    await ageSessionSignIn(app, session.id, '1 hour');
    const init = await app.public.get<FlowShape>('/self-service/settings/api', { headers });
    const password = await app.public.post<{ error: { id: string; details: { redirect_browser_to: string } } }>(
      `/self-service/settings?flow=${init.body.id}`,
      {
        json: { method: 'password', password: NEW_PASSWORD },
        headers,
      },
    );
    expect(password.status).toBe(403);
    expect(password.body.error.id).toBe('session_refresh_required');
    expect(password.body.error.details.redirect_browser_to).toContain('refresh=true');
    const email = await app.public.post<{ error: { id: string } }>(`/self-service/settings?flow=${init.body.id}`, {
      json: { method: 'profile', traits: { email: 'wes2@example.com' } },
      headers,
    });
    expect(email.status).toBe(403);
    const name = await app.public.post(`/self-service/settings?flow=${init.body.id}`, {
      json: { method: 'profile', traits: { email: 'wes@example.com', name: { last: 'W' } } },
      headers,
    });
    expect(name.status).toBe(200);
    expect((await apiLogin(app, 'wes@example.com', GOOD_PASSWORD)).status).toBe(200);
  });

  it('isolation: a settings flow of one identity can be neither read nor submitted with another session (403)', async () => {
    const first = await apiSession('xia@example.com');
    const second = await apiSession('yan@example.com');
    const init = await app.public.get<FlowShape>('/self-service/settings/api', { headers: first.headers });
    const read = await app.public.get<{ error: { id: string } }>(`/self-service/settings/flows?id=${init.body.id}`, {
      headers: second.headers,
    });
    expect(read.status).toBe(403);
    expect(read.body.error.id).toBe('security_identity_mismatch');
    const submit = await app.public.post(`/self-service/settings?flow=${init.body.id}`, {
      json: { method: 'profile', traits: { email: 'stolen@example.com' } },
      headers: second.headers,
    });
    expect(submit.status).toBe(403);
    const unchanged = await app.public.get<SessionShape>('/sessions/whoami', { headers: first.headers });
    expect(unchanged.body.identity.traits['email']).toBe('xia@example.com');
  });

  it('expired: fetch 410; submit 302 to a fresh settings flow with 4050001', async () => {
    const { headers } = await apiSession('zak@example.com');
    const init = await app.public.get<FlowShape>('/self-service/settings/api', { headers });
    await expireFlow(app, init.body.id, '1 minute');
    expect((await app.public.get(`/self-service/settings/flows?id=${init.body.id}`, { headers })).status).toBe(410);
    const submit = await app.public.post<FlowShape>(`/self-service/settings?flow=${init.body.id}`, {
      json: { method: 'profile', traits: {} },
      headers,
    });
    expect(submit.status).toBe(302);
    expect(messageIds(submit.body)).toEqual([4050001]);
  });
});

describe('settings flow (browser)', () => {
  it('without a session: 302 to the browser login, which comes back to settings', async () => {
    const init = await new Browser(app).get('/self-service/settings/browser');
    expect(init.status).toBe(302);
    const location = new URL(init.headers.get('location')!);
    expect(location.pathname).toBe('/self-service/login/browser');
    expect(location.searchParams.get('return_to')).toBe(`${app.running.config.urls.issuer}/self-service/settings/browser`);
  });

  it('profile via an HTML form: 302 back to the settings UI showing success; CSRF enforced', async () => {
    await createPasswordIdentity(app, 'abe@example.com');
    const browser = new Browser(app);
    expect((await browser.login('abe@example.com', GOOD_PASSWORD)).status).toBe(302);
    const flow = await browser.startFlow('settings');
    const form = { method: 'profile', 'traits.email': 'abe@example.com', 'traits.name.first': 'Abe' };
    expect((await browser.postForm(`/self-service/settings?flow=${flow.id}`, form)).status).toBe(403);
    const submit = await browser.postForm(`/self-service/settings?flow=${flow.id}`, {
      ...form,
      csrf_token: String(nodeValue(flow, 'csrf_token')),
    });
    expect(submit.status).toBe(302);
    expect(new URL(submit.headers.get('location')!).searchParams.get('flow')).toBe(flow.id);
    const after = await browser.get<FlowShape>(`/self-service/settings/flows?id=${flow.id}`);
    expect(after.body.state).toBe('success');
    expect(nodeValue(after.body, 'traits.name.first')).toBe('Abe');
  });

  it('password with an old session: 302 to the login with refresh=true and return_to the flow; after the refresh it works', async () => {
    await createPasswordIdentity(app, 'bea@example.com');
    const browser = new Browser(app);
    await browser.login('bea@example.com', GOOD_PASSWORD);
    const session = await browser.get<SessionShape>('/sessions/whoami');
    await ageSessionSignIn(app, session.body.id, '1 hour');
    const flow = await browser.startFlow('settings');
    const csrf = String(nodeValue(flow, 'csrf_token'));
    const refused = await browser.postForm(`/self-service/settings?flow=${flow.id}`, {
      csrf_token: csrf,
      method: 'password',
      password: NEW_PASSWORD,
    });
    expect(refused.status).toBe(302);
    const login = new URL(refused.headers.get('location')!);
    expect(login.pathname).toBe('/self-service/login/browser');
    expect(login.searchParams.get('refresh')).toBe('true');
    expect(new URL(login.searchParams.get('return_to')!).searchParams.get('flow')).toBe(flow.id);

    const refreshFlow = await browser.startFlow('login', login.search);
    const refreshed = await browser.postForm(`/self-service/login?flow=${refreshFlow.id}`, {
      csrf_token: String(nodeValue(refreshFlow, 'csrf_token')),
      method: 'password',
      password_identifier: 'bea@example.com',
      password: GOOD_PASSWORD,
    });
    expect(refreshed.status).toBe(302);
    expect(refreshed.headers.get('location')).toBe(login.searchParams.get('return_to'));
    const changed = await browser.postForm(`/self-service/settings?flow=${flow.id}`, {
      csrf_token: csrf,
      method: 'password',
      password: NEW_PASSWORD,
    });
    expect(changed.status).toBe(302);
    expect((await apiLogin(app, 'bea@example.com', NEW_PASSWORD)).status).toBe(200);
  });
});
