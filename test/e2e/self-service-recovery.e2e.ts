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
import { linkIn, SmtpSink, type ReceivedEmail } from '../support/smtp-sink.js';
import { expireFlow, expireRecoveryTokens } from '../support/time-travel.js';

let app: TestApp;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await SmtpSink.start();
  app = await bootApp({ COURIER_SMTP_URL: smtp.url, COURIER_DISPATCH_INTERVAL_MS: '50' });
});

afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

/** Path and query of a link (the issuer in tests names port 0). */
function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

async function apiFlow(): Promise<FlowShape> {
  const init = await app.public.get<FlowShape>('/self-service/recovery/api');
  expect(init.status).toBe(200);
  return init.body;
}

async function fetchFlow(kind: string, location: string | null, browser?: Browser): Promise<FlowShape> {
  const id = new URL(location!).searchParams.get('flow');
  const path = `/self-service/${kind}/flows?id=${id}`;
  const response = browser === undefined ? await app.public.get<FlowShape>(path) : await browser.get<FlowShape>(path);
  expect(response.status).toBe(200);
  return response.body;
}

/** Where a 302 goes, without its query. */
function target(location: string | null): string {
  const url = new URL(location!);
  return `${url.origin}${url.pathname}`;
}

/** Requests a recovery e-mail through an API flow and returns the e-mail (the latest to that address). */
async function requestLink(email: string): Promise<{ flow: FlowShape; mail: ReceivedEmail; link: string }> {
  const before = smtp.to(email).length;
  const flow = await apiFlow();
  const submit = await app.public.post<FlowShape>(`/self-service/recovery?flow=${flow.id}`, { json: { method: 'link', email } });
  expect(submit.status).toBe(200);
  const mail = await smtp.waitFor(email, (candidate) => smtp.to(email).indexOf(candidate) >= before);
  return { flow, mail, link: linkIn(mail, '/self-service/recovery') };
}

describe('recovery flow: init and fetch', () => {
  it('API init: 200 recoveryFlow in choose_method with csrf_token, email and the link method', async () => {
    const flow = await apiFlow();
    expect(flow).toMatchObject({ type: 'api', state: 'choose_method' });
    expect(flow.ui.action).toBe(`${app.running.config.urls.issuer}/self-service/recovery?flow=${flow.id}`);
    expect(flow.ui.nodes).toEqual([
      {
        type: 'input',
        group: 'default',
        attributes: { name: 'csrf_token', type: 'hidden', value: '', required: true, disabled: false },
        messages: null,
        meta: {},
      },
      {
        type: 'input',
        group: 'link',
        attributes: { name: 'email', type: 'email', value: '', required: true, disabled: false },
        messages: null,
        meta: {},
      },
      {
        type: 'input',
        group: 'link',
        attributes: { name: 'method', type: 'submit', value: 'link', disabled: false },
        messages: null,
        meta: { label: { id: 1070005, text: 'Submit', type: 'info' } },
      },
    ]);
    expect(Object.keys(flow).sort()).toEqual(['expires_at', 'id', 'issued_at', 'request_url', 'state', 'type', 'ui']);
  });

  it('browser init: 302 to the recovery UI with the flow id, and a CSRF cookie', async () => {
    const browser = new Browser(app);
    const init = await browser.get('/self-service/recovery/browser');
    expect(init.status).toBe(302);
    expect(target(init.headers.get('location'))).toBe(app.running.config.selfService.urls.recovery);
    const flow = await fetchFlow('recovery', init.headers.get('location'), browser);
    expect(flow).toMatchObject({ type: 'browser', state: 'choose_method' });
    expect(String(nodeValue(flow, 'csrf_token'))).not.toBe('');
    expect(browser.jar.names()).toContain('service_csrf_token');
  });

  it('fetch: 404 for an unknown flow, 400 for a malformed id, 410 once expired', async () => {
    expect((await app.public.get('/self-service/recovery/flows?id=00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await app.public.get('/self-service/recovery/flows?id=nope')).status).toBe(400);
    const flow = await apiFlow();
    await expireFlow(app, flow.id, '2 minutes');
    const gone = await app.public.get<{ error: { id: string } }>(`/self-service/recovery/flows?id=${flow.id}`);
    expect(gone.status).toBe(410);
    expect(gone.body.error.id).toBe('self_service_flow_expired');
  });

  it('a session makes recovery impossible: API init 400, browser init 302 to the default return URL', async () => {
    await createPasswordIdentity(app, 'signed-in@example.com');
    const login = await apiLogin(app, 'signed-in@example.com', GOOD_PASSWORD);
    const api = await app.public.get<{ error: { id: string } }>('/self-service/recovery/api', {
      headers: { 'x-session-token': login.body.session_token },
    });
    expect(api.status).toBe(400);
    expect(api.body.error.id).toBe('session_already_available');
    const browser = new Browser(app);
    expect((await browser.login('signed-in@example.com', GOOD_PASSWORD)).status).toBe(302);
    const init = await browser.get('/self-service/recovery/browser');
    expect(init.status).toBe(302);
    expect(init.headers.get('location')).toBe(app.running.config.selfService.defaultBrowserReturnUrl);
  });
});

describe('recovery state table (seed 001)', () => {
  it('choose_method, form valid, API client → sent_email, 200 recoveryFlow with 1060002', async () => {
    await createPasswordIdentity(app, 'rita@example.com');
    const flow = await apiFlow();
    const submit = await app.public.post<FlowShape>(`/self-service/recovery?flow=${flow.id}`, {
      json: { method: 'link', email: 'rita@example.com' },
    });
    expect(submit.status).toBe(200);
    expect(submit.body).toMatchObject({ id: flow.id, state: 'sent_email', active: 'link' });
    expect(messageIds(submit.body)).toEqual([1060002]);
    expect(nodeValue(submit.body, 'email')).toBe('rita@example.com');
    const mail = await smtp.waitFor('rita@example.com');
    expect(mail.subject).toBe('Recover access to your account');
    expect(new URL(linkIn(mail, '/self-service/recovery')).searchParams.get('flow')).toBe(flow.id);
  });

  it('choose_method, form invalid, API client → stays in choose_method, 400 recoveryFlow', async () => {
    const flow = await apiFlow();
    const missing = await app.public.post<FlowShape>(`/self-service/recovery?flow=${flow.id}`, { json: { method: 'link', email: '' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ id: flow.id, state: 'choose_method' });
    expect(messageIds(missing.body)).toEqual([4000002]);
    const malformed = await app.public.post<FlowShape>(`/self-service/recovery?flow=${flow.id}`, { json: { email: 'no-at-sign' } });
    expect(malformed.status).toBe(400);
    expect(messageIds(malformed.body)).toEqual([4000004]);
    const method = await app.public.post<FlowShape>(`/self-service/recovery?flow=${flow.id}`, {
      json: { method: 'password', email: 'a@example.com' },
    });
    expect(method.status).toBe(400);
    expect(messageIds(method.body)).toEqual([4010005]);
  });

  it('choose_method, flow expired, API client → 302 to a fresh recovery flow carrying 4060005', async () => {
    const flow = await apiFlow();
    await expireFlow(app, flow.id, '2 minutes');
    const submit = await app.public.post<FlowShape>(`/self-service/recovery?flow=${flow.id}`, { json: { email: 'rita@example.com' } });
    expect(submit.status).toBe(302);
    const fresh = await app.public.get<FlowShape>(pathOf(submit.headers.get('location')!));
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ type: 'api', state: 'choose_method' });
    expect(fresh.body.id).not.toBe(flow.id);
    expect(messageIds(fresh.body)).toEqual([4060005]);
  });

  it('choose_method, browser client → 302 to the recovery UI with the flow id (valid form, invalid form, expired flow)', async () => {
    await createPasswordIdentity(app, 'bruno@example.com');
    const browser = new Browser(app);
    const flow = await browser.startFlow('recovery');
    const csrf = String(nodeValue(flow, 'csrf_token'));
    const ui = `${app.running.config.selfService.urls.recovery}?flow=${flow.id}`;

    const invalid = await browser.postForm(`/self-service/recovery?flow=${flow.id}`, { csrf_token: csrf, method: 'link', email: '' });
    expect(invalid.status).toBe(302);
    expect(invalid.headers.get('location')).toBe(ui);
    const shown = await fetchFlow('recovery', ui, browser);
    expect(shown.state).toBe('choose_method');
    expect(messageIds(shown)).toEqual([4000002]);

    const valid = await browser.postForm(`/self-service/recovery?flow=${flow.id}`, {
      csrf_token: csrf,
      method: 'link',
      email: 'bruno@example.com',
    });
    expect(valid.status).toBe(302);
    expect(valid.headers.get('location')).toBe(ui);
    expect((await fetchFlow('recovery', ui, browser)).state).toBe('sent_email');
    await smtp.waitFor('bruno@example.com');

    const other = await browser.startFlow('recovery');
    await expireFlow(app, other.id, '2 minutes');
    const expired = await browser.postForm(`/self-service/recovery?flow=${other.id}`, { csrf_token: csrf, email: 'bruno@example.com' });
    expect(expired.status).toBe(302);
    expect(target(expired.headers.get('location'))).toBe(app.running.config.selfService.urls.recovery);
    const fresh = await fetchFlow('recovery', expired.headers.get('location'), browser);
    expect(fresh.id).not.toBe(other.id);
    expect(messageIds(fresh)).toEqual([4060005]);
  });

  it('sent_email: asking for another e-mail gives the same responses as choose_method (200, 400, 302)', async () => {
    await createPasswordIdentity(app, 'again@example.com');
    const flow = await apiFlow();
    const first = await app.public.post<FlowShape>(`/self-service/recovery?flow=${flow.id}`, { json: { email: 'again@example.com' } });
    expect(first.body.state).toBe('sent_email');
    const second = await app.public.post<FlowShape>(`/self-service/recovery?flow=${flow.id}`, { json: { email: 'again@example.com' } });
    expect(second.status).toBe(200);
    expect(second.body.state).toBe('sent_email');
    const invalid = await app.public.post<FlowShape>(`/self-service/recovery?flow=${flow.id}`, { json: { email: '' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.state).toBe('sent_email');
    await expireFlow(app, flow.id, '2 minutes');
    const expired = await app.public.post(`/self-service/recovery?flow=${flow.id}`, { json: { email: 'again@example.com' } });
    expect(expired.status).toBe(302);
    // Both e-mails carry working links for this flow.
    await smtp.waitFor('again@example.com', () => smtp.to('again@example.com').length >= 2);
    expect(new Set(smtp.to('again@example.com').map((mail) => linkIn(mail, '/self-service/recovery'))).size).toBe(2);
  });

  it('passed_challenge, link valid → session cookie and 302 to the settings UI, whose flow says to set a password (1060001)', async () => {
    const identityId = await createPasswordIdentity(app, 'paula@example.com');
    const { flow, link } = await requestLink('paula@example.com');
    const browser = new Browser(app);
    const follow = await browser.get(pathOf(link));
    expect(follow.status).toBe(302);
    expect(target(follow.headers.get('location'))).toBe(app.running.config.selfService.urls.settings);
    const session = browser.jar.get('service_session');
    expect(session).toBeDefined();
    expect(session!.attributes['httponly']).toBe(true);

    const settings = await fetchFlow('settings', follow.headers.get('location'), browser);
    expect(settings.type).toBe('browser');
    expect(messageIds(settings)).toContain(1060001);
    const whoami = await browser.get<SessionShape>('/sessions/whoami');
    expect(whoami.status).toBe(200);
    expect(whoami.body.identity.id).toBe(identityId);
    expect((await app.public.get<FlowShape>(`/self-service/recovery/flows?id=${flow.id}`)).body.state).toBe('passed_challenge');

    // The user sets a new password in that settings flow and can log in with it.
    const newPassword = 'a brand new recovered passphrase 7';
    const saved = await browser.postForm(`/self-service/settings?flow=${settings.id}`, {
      csrf_token: String(nodeValue(settings, 'csrf_token')),
      method: 'password',
      password: newPassword,
    });
    expect(saved.status).toBe(302);
    expect((await apiLogin(app, 'paula@example.com', newPassword)).status).toBe(200);
    expect((await apiLogin(app, 'paula@example.com', GOOD_PASSWORD)).status).toBe(400);
  });

  it('a browser client: the form post sends the e-mail, and the link in it (followed by that browser) leads to settings', async () => {
    const identityId = await createPasswordIdentity(app, 'brenda@example.com');
    const browser = new Browser(app);
    const flow = await browser.startFlow('recovery');
    const submit = await browser.postForm(`/self-service/recovery?flow=${flow.id}`, {
      csrf_token: String(nodeValue(flow, 'csrf_token')),
      method: 'link',
      email: 'brenda@example.com',
    });
    expect(submit.status).toBe(302);
    expect(submit.headers.get('location')).toBe(`${app.running.config.selfService.urls.recovery}?flow=${flow.id}`);
    const link = linkIn(await smtp.waitFor('brenda@example.com'), '/self-service/recovery');
    expect(new URL(link).searchParams.get('flow')).toBe(flow.id);
    const follow = await browser.get(pathOf(link));
    expect(follow.status).toBe(302);
    expect(target(follow.headers.get('location'))).toBe(app.running.config.selfService.urls.settings);
    expect((await browser.get<SessionShape>('/sessions/whoami')).body.identity.id).toBe(identityId);
    expect((await browser.get<FlowShape>(`/self-service/recovery/flows?id=${flow.id}`)).body.state).toBe('passed_challenge');
  });

  it('passed_challenge, link invalid → 302 to the recovery UI with a new flow holding 4060004', async () => {
    const flow = await apiFlow();
    const follow = await app.public.get(`/self-service/recovery?flow=${flow.id}&token=not-a-token-of-ours`);
    expect(follow.status).toBe(302);
    expect(target(follow.headers.get('location'))).toBe(app.running.config.selfService.urls.recovery);
    const fresh = await fetchFlow('recovery', follow.headers.get('location'));
    expect(fresh).toMatchObject({ type: 'browser', state: 'choose_method' });
    expect(fresh.id).not.toBe(flow.id);
    expect(messageIds(fresh)).toEqual([4060004]);
    const malformed = await app.public.get('/self-service/recovery?flow=nope&token=x');
    expect(malformed.status).toBe(302);
    expect(messageIds(await fetchFlow('recovery', malformed.headers.get('location')))).toEqual([4060004]);
  });

  it('passed_challenge: a submit to a flow that already passed its challenge starts over with 4060001', async () => {
    await createPasswordIdentity(app, 'done@example.com');
    const { flow, link } = await requestLink('done@example.com');
    expect((await new Browser(app).get(pathOf(link))).status).toBe(302);
    const submit = await app.public.post<FlowShape>(`/self-service/recovery?flow=${flow.id}`, { json: { email: 'done@example.com' } });
    expect(submit.status).toBe(302);
    expect(submit.body.id).not.toBe(flow.id);
    expect(messageIds(submit.body)).toEqual([4060001]);
  });

  it('a GET of the submit URL without a token is a 400', async () => {
    const flow = await apiFlow();
    const response = await app.public.get<{ error: { id: string } }>(`/self-service/recovery?flow=${flow.id}`);
    expect(response.status).toBe(400);
    expect(response.body.error.id).toBe('invalid_request');
  });
});

describe('recovery security (S50, S51, S53, S54)', () => {
  it('S50: a browser submit without a matching csrf_token is refused with 403 and sends nothing', async () => {
    await createPasswordIdentity(app, 'csrf@example.com');
    const browser = new Browser(app);
    const flow = await browser.startFlow('recovery');
    const missing = await browser.postForm(
      `/self-service/recovery?flow=${flow.id}`,
      { email: 'csrf@example.com' },
      { accept: 'application/json' },
    );
    expect(missing.status).toBe(403);
    expect((missing.body as { error: { id: string } }).error.id).toBe('security_csrf_violation');
    const stranger = new Browser(app);
    await stranger.startFlow('recovery');
    const crossSite = await stranger.postForm(
      `/self-service/recovery?flow=${flow.id}`,
      { csrf_token: String(nodeValue(flow, 'csrf_token')), email: 'csrf@example.com' },
      { accept: 'application/json' },
    );
    expect(crossSite.status).toBe(403);
    // A navigating browser is sent to the error UI instead.
    const navigating = await browser.postForm(
      `/self-service/recovery?flow=${flow.id}`,
      { email: 'csrf@example.com' },
      { accept: 'text/html' },
    );
    expect(navigating.status).toBe(302);
    expect(target(navigating.headers.get('location'))).toBe(app.running.config.selfService.urls.error);
    expect((await fetchFlow('recovery', `${app.running.config.selfService.urls.recovery}?flow=${flow.id}`, browser)).state).toBe(
      'choose_method',
    );
    const rows = await queryDatabase(app.databaseUrl, `SELECT 1 FROM courier_messages WHERE recipient = 'csrf@example.com'`);
    expect(rows).toHaveLength(0);
  });

  it('S51: an API flow submitted with a Cookie or Origin header is refused with 400', async () => {
    const flow = await apiFlow();
    const cookie = await app.public.post<{ error: { id: string } }>(`/self-service/recovery?flow=${flow.id}`, {
      json: { email: 'x@example.com' },
      headers: { cookie: 'a=b' },
    });
    expect(cookie.status).toBe(400);
    expect(cookie.body.error.id).toBe('browser_request_on_api_flow');
    const origin = await app.public.post(`/self-service/recovery?flow=${flow.id}`, {
      json: { email: 'x@example.com' },
      headers: { origin: 'https://evil.example' },
    });
    expect(origin.status).toBe(400);
  });

  it('S53: an unknown address gets the same status, body shape and state as a known one, and an "invalid" e-mail', async () => {
    await createPasswordIdentity(app, 'enum-known@example.com');
    const known = await app.public.post<FlowShape>(`/self-service/recovery?flow=${(await apiFlow()).id}`, {
      json: { email: 'enum-known@example.com' },
    });
    const unknown = await app.public.post<FlowShape>(`/self-service/recovery?flow=${(await apiFlow()).id}`, {
      json: { email: 'enum-unknown@example.com' },
    });
    expect(unknown.status).toBe(200);
    expect(unknown.status).toBe(known.status);
    const shape = (flow: FlowShape): unknown => ({
      keys: Object.keys(flow).sort(),
      state: flow.state,
      active: flow.active,
      messages: flow.ui.messages,
      nodes: flow.ui.nodes.map((entry) => ({
        ...entry,
        attributes: { ...entry.attributes, value: entry.attributes.name === 'email' ? '*' : entry.attributes.value },
      })),
    });
    expect(shape(unknown.body)).toEqual(shape(known.body));
    const notice = await smtp.waitFor('enum-unknown@example.com');
    expect(notice.subject).toBe('Account access attempted');
    expect(notice.text).not.toContain('/self-service/recovery');
    const valid = await smtp.waitFor('enum-known@example.com');
    expect(valid.subject).toBe('Recover access to your account');
  });

  it('S54: a link works once; a second use gives a new flow with 4060004 and no session', async () => {
    await createPasswordIdentity(app, 'twice@example.com');
    const { link } = await requestLink('twice@example.com');
    const first = await new Browser(app).get(pathOf(link));
    expect(target(first.headers.get('location'))).toBe(app.running.config.selfService.urls.settings);
    const secondBrowser = new Browser(app);
    const second = await secondBrowser.get(pathOf(link));
    expect(second.status).toBe(302);
    expect(target(second.headers.get('location'))).toBe(app.running.config.selfService.urls.recovery);
    expect(messageIds(await fetchFlow('recovery', second.headers.get('location')))).toEqual([4060004]);
    expect(secondBrowser.jar.get('service_session')).toBeUndefined();
  });

  it('S54: a link from flow A used with flow B is refused (4060004), and still works with flow A', async () => {
    await createPasswordIdentity(app, 'swap@example.com');
    const { link } = await requestLink('swap@example.com');
    const other = await apiFlow();
    const token = new URL(link).searchParams.get('token')!;
    const swapped = await new Browser(app).get(`/self-service/recovery?flow=${other.id}&token=${encodeURIComponent(token)}`);
    expect(target(swapped.headers.get('location'))).toBe(app.running.config.selfService.urls.recovery);
    expect(messageIds(await fetchFlow('recovery', swapped.headers.get('location')))).toEqual([4060004]);
    const original = await new Browser(app).get(pathOf(link));
    expect(target(original.headers.get('location'))).toBe(app.running.config.selfService.urls.settings);
  });

  it('S54: an expired link gives a new flow with 4060005 and no session', async () => {
    await createPasswordIdentity(app, 'late@example.com');
    const { flow, link } = await requestLink('late@example.com');
    await expireRecoveryTokens(app, flow.id, '1 minute');
    const browser = new Browser(app);
    const follow = await browser.get(pathOf(link));
    expect(target(follow.headers.get('location'))).toBe(app.running.config.selfService.urls.recovery);
    expect(messageIds(await fetchFlow('recovery', follow.headers.get('location')))).toEqual([4060005]);
    expect(browser.jar.get('service_session')).toBeUndefined();
  });

  it('S49: a CRLF, control-character or oversized address is a form error (400, 4000004) and queues nothing', async () => {
    for (const email of ['a@b.c\r\nBcc: x@evil.example', '\u202Eevil@example.com', `${'a'.repeat(10_000)}@example.com`]) {
      const submit = await app.public.post<FlowShape>(`/self-service/recovery?flow=${(await apiFlow()).id}`, { json: { email } });
      expect(submit.status).toBe(400);
      expect(messageIds(submit.body)).toEqual([4000004]);
    }
    const rows = await queryDatabase(
      app.databaseUrl,
      `SELECT 1 FROM courier_messages WHERE recipient LIKE '%evil%' OR length(recipient) > 1000`,
    );
    expect(rows).toHaveLength(0);
  });

  it('stores only an HMAC of each token: the token in the e-mail is nowhere in the database', async () => {
    await createPasswordIdentity(app, 'hmac@example.com');
    const { link } = await requestLink('hmac@example.com');
    const token = new URL(link).searchParams.get('token')!;
    const tokens = await queryDatabase<{ token_hmac: string }>(app.databaseUrl, `SELECT token_hmac FROM identity_recovery_tokens`);
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.some((row) => row.token_hmac.includes(token))).toBe(false);
    const messages = await queryDatabase<{ body_text: string; body_html: string }>(
      app.databaseUrl,
      `SELECT body_text, body_html FROM courier_messages`,
    );
    expect(messages.some((row) => row.body_text.includes(token) || row.body_html.includes(token))).toBe(false);
  });
});

describe('admin recovery links', () => {
  it('a link minted by POST /recovery/link signs the user in and leads to the settings UI, once', async () => {
    const identityId = await createPasswordIdentity(app, 'admin-link@example.com');
    const minted = await app.admin.post<{ recovery_link: string; expires_at: string }>('/recovery/link', {
      json: { identity_id: identityId },
    });
    expect(minted.status).toBe(200);
    const browser = new Browser(app);
    const follow = await browser.get(pathOf(minted.body.recovery_link));
    expect(follow.status).toBe(302);
    expect(target(follow.headers.get('location'))).toBe(app.running.config.selfService.urls.settings);
    const whoami = await browser.get<SessionShape>('/sessions/whoami');
    expect(whoami.body.identity.id).toBe(identityId);
    expect(messageIds(await fetchFlow('settings', follow.headers.get('location'), browser))).toContain(1060001);
    const again = await new Browser(app).get(pathOf(minted.body.recovery_link));
    expect(target(again.headers.get('location'))).toBe(app.running.config.selfService.urls.recovery);
  });

  it('an admin link past its expires_in gives a new flow with 4060005 and no session', async () => {
    const identityId = await createPasswordIdentity(app, 'admin-late@example.com');
    const minted = await app.admin.post<{ recovery_link: string; expires_at: string }>('/recovery/link', {
      json: { identity_id: identityId, expires_in: '10m' },
    });
    expect(minted.status).toBe(200);
    const flowId = new URL(minted.body.recovery_link).searchParams.get('flow');
    await expireRecoveryTokens(app, flowId!, '1 second');
    const browser = new Browser(app);
    const follow = await browser.get(pathOf(minted.body.recovery_link));
    expect(target(follow.headers.get('location'))).toBe(app.running.config.selfService.urls.recovery);
    expect(messageIds(await fetchFlow('recovery', follow.headers.get('location')))).toEqual([4060005]);
    expect(browser.jar.get('service_session')).toBeUndefined();
  });

  it('a browser that already has a session is sent to the default return URL and the link stays unused', async () => {
    const identityId = await createPasswordIdentity(app, 'has-session@example.com');
    const minted = await app.admin.post<{ recovery_link: string }>('/recovery/link', { json: { identity_id: identityId } });
    const browser = new Browser(app);
    expect((await browser.login('has-session@example.com', GOOD_PASSWORD)).status).toBe(302);
    const follow = await browser.get(pathOf(minted.body.recovery_link));
    expect(follow.headers.get('location')).toBe(app.running.config.selfService.defaultBrowserReturnUrl);
    const fresh = await new Browser(app).get(pathOf(minted.body.recovery_link));
    expect(target(fresh.headers.get('location'))).toBe(app.running.config.selfService.urls.settings);
  });
});
