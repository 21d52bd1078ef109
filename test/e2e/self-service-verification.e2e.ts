import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import {
  apiLogin,
  Browser,
  createPasswordIdentity,
  GOOD_PASSWORD,
  messageIds,
  nodeValue,
  type FlowShape,
  type SessionShape,
} from '../support/self-service.js';
import { linkIn, SmtpSink } from '../support/smtp-sink.js';
import { expireFlow, expireVerificationTokens } from '../support/time-travel.js';

let app: TestApp;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await SmtpSink.start();
  app = await bootApp({
    COURIER_SMTP_URL: smtp.url,
    COURIER_DISPATCH_INTERVAL_MS: '50',
    SELFSERVICE_ALLOWED_RETURN_URLS: 'https://app.example.com/verified',
  });
});

afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

/** Path and query of a link from an e-mail (the issuer in tests names port 0). */
function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

interface AddressShape {
  value: string;
  verified: boolean;
  status: string;
  verified_at: string | null;
}

async function addressOf(identityId: string): Promise<AddressShape> {
  const identity = await app.admin.get<{ verifiable_addresses: AddressShape[] }>(`/identities/${identityId}`);
  expect(identity.status).toBe(200);
  return identity.body.verifiable_addresses[0]!;
}

async function apiFlow(): Promise<FlowShape> {
  const init = await app.public.get<FlowShape>('/self-service/verification/api');
  expect(init.status).toBe(200);
  return init.body;
}

describe('verification flow (API)', () => {
  it('initializes in choose_method with csrf_token, email and the link method', async () => {
    const flow = await apiFlow();
    expect(flow).toMatchObject({ type: 'api', state: 'choose_method' });
    expect(flow.ui.action).toBe(`${app.running.config.urls.issuer}/self-service/verification?flow=${flow.id}`);
    expect(flow.ui.nodes.map((node) => [node.group, node.attributes.name, node.attributes.type])).toEqual([
      ['default', 'csrf_token', 'hidden'],
      ['link', 'email', 'email'],
      ['link', 'method', 'submit'],
    ]);
    const fetched = await app.public.get<FlowShape>(`/self-service/verification/flows?id=${flow.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.id).toBe(flow.id);
  });

  it('sends a link by e-mail; following it verifies the address and goes on to the default return URL', async () => {
    const identityId = await createPasswordIdentity(app, 'vera@example.com');
    expect(await addressOf(identityId)).toMatchObject({ verified: false, status: 'pending', verified_at: null });
    const flow = await apiFlow();
    const submit = await app.public.post<FlowShape>(`/self-service/verification?flow=${flow.id}`, {
      json: { method: 'link', email: 'Vera@Example.com' },
    });
    expect(submit.status).toBe(200);
    expect(submit.body.state).toBe('sent_email');
    expect(messageIds(submit.body)).toEqual([1070001]);
    expect(nodeValue(submit.body, 'email')).toBe('Vera@Example.com');

    const email = await smtp.waitFor('Vera@Example.com', (mail) => mail.subject === 'Please verify your email address');
    expect((await addressOf(identityId)).status).toBe('sent');
    const link = linkIn(email, '/self-service/verification');
    expect(new URL(link).searchParams.get('flow')).toBe(flow.id);
    const follow = await app.public.get(pathOf(link));
    expect(follow.status).toBe(302);
    expect(follow.headers.get('location')).toBe(app.running.config.selfService.defaultBrowserReturnUrl);

    const address = await addressOf(identityId);
    expect(address).toMatchObject({ verified: true, status: 'completed' });
    expect(Date.parse(address.verified_at!)).toBeGreaterThan(Date.now() - 60_000);
    const after = await app.public.get<FlowShape>(`/self-service/verification/flows?id=${flow.id}`);
    expect(after.body.state).toBe('passed_challenge');
  });

  it('answers an unknown address exactly like a known one, and mails the "invalid" notice', async () => {
    await createPasswordIdentity(app, 'known-v@example.com');
    const known = await app.public.post<FlowShape>(`/self-service/verification?flow=${(await apiFlow()).id}`, {
      json: { email: 'known-v@example.com' },
    });
    const unknown = await app.public.post<FlowShape>(`/self-service/verification?flow=${(await apiFlow()).id}`, {
      json: { email: 'nobody-v@example.com' },
    });
    expect(unknown.status).toBe(known.status);
    const strip = (flow: FlowShape): unknown => ({
      ...flow,
      id: 'x',
      expires_at: 'x',
      issued_at: 'x',
      request_url: 'x',
      ui: { ...flow.ui, action: 'x', nodes: flow.ui.nodes.filter((n) => n.attributes.name !== 'email') },
    });
    expect(strip(unknown.body)).toEqual(strip(known.body));
    const notice = await smtp.waitFor('nobody-v@example.com');
    expect(notice.subject).toBe('Someone tried to verify this email address');
    expect(notice.text).not.toContain('/self-service/verification');
  });

  it('refuses a bad form with 400 and the flow (state unchanged), and an unknown method with 4010006', async () => {
    const flow = await apiFlow();
    const missing = await app.public.post<FlowShape>(`/self-service/verification?flow=${flow.id}`, { json: { method: 'link', email: '' } });
    expect(missing.status).toBe(400);
    expect(missing.body.state).toBe('choose_method');
    expect(messageIds(missing.body)).toEqual([4000002]);
    const malformed = await app.public.post<FlowShape>(`/self-service/verification?flow=${flow.id}`, { json: { email: 'not-an-address' } });
    expect(malformed.status).toBe(400);
    expect(messageIds(malformed.body)).toEqual([4000004]);
    const method = await app.public.post<FlowShape>(`/self-service/verification?flow=${flow.id}`, {
      json: { method: 'code', email: 'a@example.com' },
    });
    expect(method.status).toBe(400);
    expect(messageIds(method.body)).toEqual([4010006]);
  });

  it('uses a link once; a used or foreign-flow link gives a new browser flow with 4070001', async () => {
    const identityId = await createPasswordIdentity(app, 'once-v@example.com');
    const flow = await apiFlow();
    await app.public.post(`/self-service/verification?flow=${flow.id}`, { json: { email: 'once-v@example.com' } });
    const link = new URL(linkIn(await smtp.waitFor('once-v@example.com'), '/self-service/verification'));
    const other = await apiFlow();
    const foreign = await app.public.get(`/self-service/verification?flow=${other.id}&token=${link.searchParams.get('token')}`);
    expect(foreign.status).toBe(302);
    expect((await addressOf(identityId)).verified).toBe(false);

    expect((await app.public.get(pathOf(link.href))).status).toBe(302);
    const again = await app.public.get(pathOf(link.href));
    expect(again.status).toBe(302);
    const location = new URL(again.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(app.running.config.selfService.urls.verification);
    const fresh = await app.public.get<FlowShape>(`/self-service/verification/flows?id=${location.searchParams.get('flow')}`);
    expect(fresh.body).toMatchObject({ type: 'browser', state: 'choose_method' });
    expect(messageIds(fresh.body)).toEqual([4070001]);
  });

  it('an expired link gives a new flow with 4070005 and verifies nothing', async () => {
    const identityId = await createPasswordIdentity(app, 'late-v@example.com');
    const flow = await apiFlow();
    await app.public.post(`/self-service/verification?flow=${flow.id}`, { json: { email: 'late-v@example.com' } });
    const link = linkIn(await smtp.waitFor('late-v@example.com'), '/self-service/verification');
    await expireVerificationTokens(app, flow.id, '1 minute');
    const follow = await app.public.get(pathOf(link));
    expect(follow.status).toBe(302);
    const fresh = await app.public.get<FlowShape>(
      `/self-service/verification/flows?id=${new URL(follow.headers.get('location')!).searchParams.get('flow')}`,
    );
    expect(messageIds(fresh.body)).toEqual([4070005]);
    expect((await addressOf(identityId)).verified).toBe(false);
  });

  it('a submit to an expired flow restarts it: 302 to a fresh flow carrying 4070005', async () => {
    const flow = await apiFlow();
    await expireFlow(app, flow.id, '2 minutes');
    const submit = await app.public.post<FlowShape>(`/self-service/verification?flow=${flow.id}`, { json: { email: 'x@example.com' } });
    expect(submit.status).toBe(302);
    expect(submit.headers.get('location')).toContain('/self-service/verification/flows?id=');
    expect(submit.body.id).not.toBe(flow.id);
    expect(messageIds(submit.body)).toEqual([4070005]);
    const gone = await app.public.get(`/self-service/verification/flows?id=${flow.id}`);
    expect(gone.status).toBe(410);
  });
});

describe('verification flow (browser)', () => {
  it('submits with the CSRF token (302 to the UI), refuses a missing one (403), and the link goes on to return_to', async () => {
    const identityId = await createPasswordIdentity(app, 'bella@example.com');
    const browser = new Browser(app);
    const init = await browser.get('/self-service/verification/browser?return_to=https://app.example.com/verified');
    expect(init.status).toBe(302);
    const flowId = new URL(init.headers.get('location')!).searchParams.get('flow')!;
    const flow = (await browser.get<FlowShape>(`/self-service/verification/flows?id=${flowId}`)).body;

    const forged = await browser.postForm(
      `/self-service/verification?flow=${flow.id}`,
      { email: 'bella@example.com', method: 'link' },
      { accept: 'application/json' },
    );
    expect(forged.status).toBe(403);
    expect((forged.body as { error: { id: string } }).error.id).toBe('security_csrf_violation');

    const submit = await browser.postForm(`/self-service/verification?flow=${flow.id}`, {
      csrf_token: String(nodeValue(flow, 'csrf_token')),
      email: 'bella@example.com',
      method: 'link',
    });
    expect(submit.status).toBe(302);
    expect(submit.headers.get('location')).toBe(`${app.running.config.selfService.urls.verification}?flow=${flow.id}`);
    const link = linkIn(await smtp.waitFor('bella@example.com'), '/self-service/verification');
    const follow = await browser.get(pathOf(link));
    expect(follow.status).toBe(302);
    expect(follow.headers.get('location')).toBe('https://app.example.com/verified');
    expect((await addressOf(identityId)).verified).toBe(true);
  });
});

describe('verification e-mails without a verification flow', () => {
  it('registration mails a link to the new address (API client); following it verifies the address', async () => {
    const init = await app.public.get<FlowShape>('/self-service/registration/api');
    const registered = await app.public.post<{ identity: { id: string }; session_token: string }>(
      `/self-service/registration?flow=${init.body.id}`,
      { json: { method: 'password', password: GOOD_PASSWORD, traits: { email: 'newcomer@example.com' } } },
    );
    expect(registered.status).toBe(200);
    const mail = await smtp.waitFor('newcomer@example.com');
    expect(mail.subject).toBe('Please verify your email address');
    expect(await addressOf(registered.body.identity.id)).toMatchObject({ verified: false, status: 'sent' });
    const follow = await app.public.get(pathOf(linkIn(mail, '/self-service/verification')));
    expect(follow.status).toBe(302);
    expect(follow.headers.get('location')).toBe(app.running.config.selfService.defaultBrowserReturnUrl);
    expect(await addressOf(registered.body.identity.id)).toMatchObject({ verified: true, status: 'completed' });
    const whoami = await app.public.get<SessionShape & { identity: { verifiable_addresses: AddressShape[] } }>('/sessions/whoami', {
      headers: { 'x-session-token': registered.body.session_token },
    });
    expect(whoami.body.identity.verifiable_addresses[0]).toMatchObject({ verified: true, status: 'completed' });
  });

  it('registration through a browser form mails the link too, and the browser that follows it lands on the return URL', async () => {
    const browser = new Browser(app);
    const flow = await browser.startFlow('registration');
    const submit = await browser.postForm(`/self-service/registration?flow=${flow.id}`, {
      csrf_token: String(nodeValue(flow, 'csrf_token')),
      method: 'password',
      password: GOOD_PASSWORD,
      'traits.email': 'browser-newcomer@example.com',
    });
    expect(submit.status).toBe(302);
    const identityId = (await browser.get<SessionShape>('/sessions/whoami')).body.identity.id;
    const follow = await browser.get(pathOf(linkIn(await smtp.waitFor('browser-newcomer@example.com'), '/self-service/verification')));
    expect(follow.status).toBe(302);
    expect((await addressOf(identityId)).verified).toBe(true);
  });

  it('a settings change mails only the new address; the addresses already sent to are not mailed again', async () => {
    const identityId = await createPasswordIdentity(app, 'mover@example.com');
    const login = await apiLogin(app, 'mover@example.com', GOOD_PASSWORD);
    const headers = { 'x-session-token': login.body.session_token };
    const flow = await app.public.get<FlowShape>('/self-service/settings/api', { headers });
    const moved = await app.public.post(`/self-service/settings?flow=${flow.body.id}`, {
      json: { method: 'profile', traits: { email: 'moved@example.com' } },
      headers,
    });
    expect(moved.status).toBe(200);
    const mail = await smtp.waitFor('moved@example.com');
    expect(mail.subject).toBe('Please verify your email address');
    expect(await addressOf(identityId)).toMatchObject({ value: 'moved@example.com', status: 'sent' });
    // Saving the profile again (a name only) sends nothing more.
    const again = await app.public.get<FlowShape>('/self-service/settings/api', { headers });
    const renamed = await app.public.post(`/self-service/settings?flow=${again.body.id}`, {
      json: { method: 'profile', traits: { email: 'moved@example.com', name: { first: 'Mo' } } },
      headers,
    });
    expect(renamed.status).toBe(200);
    // E-mails are queued within the request: the outbox is the whole truth.
    const queued = await queryDatabase<{ recipient: string }>(
      app.databaseUrl,
      `SELECT recipient FROM courier_messages WHERE recipient IN ('mover@example.com', 'moved@example.com')`,
    );
    expect(queued.map((row) => row.recipient)).toEqual(['moved@example.com']);
  });
});
