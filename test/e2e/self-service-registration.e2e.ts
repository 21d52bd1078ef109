import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import {
  apiLogin,
  Browser,
  GOOD_PASSWORD,
  messageIds,
  node,
  nodeValue,
  type FlowShape,
  type SessionShape,
} from '../support/self-service.js';
import { expireFlow } from '../support/time-travel.js';

/** A schema with nested, boolean, integer, number and array traits, to exercise form decoding end to end. */
const MEMBER_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  properties: {
    traits: {
      type: 'object',
      properties: {
        email: {
          type: 'string',
          format: 'email',
          title: 'E-Mail',
          'ory.sh/kratos': { credentials: { password: { identifier: true } }, recovery: { via: 'email' }, verification: { via: 'email' } },
        },
        name: { type: 'object', properties: { first: { type: 'string', title: 'First Name' }, last: { type: 'string' } } },
        newsletter: { type: 'boolean' },
        age: { type: 'integer', minimum: 0 },
        height: { type: 'number' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['email'],
      additionalProperties: false,
    },
  },
};

interface RegistrationResponse {
  identity: { id: string; traits: Record<string, unknown>; verifiable_addresses: { value: string }[] };
  session: SessionShape;
  session_token: string;
}

let app: TestApp;

beforeAll(async () => {
  app = await bootApp({ IDENTITY_SCHEMAS: JSON.stringify([{ id: 'member', url: JSON.stringify(MEMBER_SCHEMA) }]) });
});

afterAll(async () => {
  await app?.close();
});

async function apiRegister(body: Record<string, unknown>): Promise<{ status: number; body: unknown; flow: FlowShape }> {
  const init = await app.public.get<FlowShape>('/self-service/registration/api');
  expect(init.status).toBe(200);
  const submit = await app.public.post(`/self-service/registration?flow=${init.body.id}`, { json: body });
  return { status: submit.status, body: submit.body, flow: init.body };
}

describe('registration flow (API)', () => {
  it('builds the form from the identity schema: csrf_token, traits.* (typed), password, method', async () => {
    const init = await app.public.get<FlowShape>('/self-service/registration/api');
    expect(init.status).toBe(200);
    expect(init.body.ui.nodes.map((entry) => [entry.attributes.name, entry.attributes.type, entry.group])).toEqual([
      ['csrf_token', 'hidden', 'default'],
      ['traits.email', 'email', 'password'],
      ['traits.name.first', 'text', 'password'],
      ['traits.name.last', 'text', 'password'],
      ['traits.newsletter', 'checkbox', 'password'],
      ['traits.age', 'number', 'password'],
      ['traits.height', 'number', 'password'],
      ['traits.tags', 'text', 'password'],
      ['password', 'password', 'password'],
      ['method', 'submit', 'password'],
    ]);
    expect(node(init.body, 'traits.email')).toMatchObject({
      attributes: { required: true },
      meta: { label: { id: 1070002, text: 'E-Mail' } },
    });
    expect(node(init.body, 'method')?.meta.label).toMatchObject({ id: 1040001, text: 'Sign up' });
    expect(init.body).not.toHaveProperty('forced');
  });

  it('registers: 200 {identity, session, session_token}; the new password logs in', async () => {
    const result = await apiRegister({
      method: 'password',
      password: GOOD_PASSWORD,
      traits: { email: 'Zed@Example.com', name: { first: 'Zed' }, newsletter: true, age: 30, tags: ['a'] },
    });
    expect(result.status).toBe(200);
    const body = result.body as RegistrationResponse;
    expect(body.identity.traits).toEqual({ email: 'Zed@Example.com', name: { first: 'Zed' }, newsletter: true, age: 30, tags: ['a'] });
    expect(body.session.identity.id).toBe(body.identity.id);
    const whoami = await app.public.get<SessionShape>('/sessions/whoami', { headers: { 'x-session-token': body.session_token } });
    expect(whoami.body.identity.id).toBe(body.identity.id);
    expect((await apiLogin(app, 'zed@example.com', GOOD_PASSWORD)).status).toBe(200);
    const [row] = await queryDatabase(
      app.databaseUrl,
      `SELECT config ->> 'hashed_password' AS hash FROM identity_credentials WHERE identity_id = $1`,
      [body.identity.id],
    );
    expect(row!['hash']).toMatch(/^\$argon2id\$/);
  });

  it('accepts a JSON body in form format (dotted keys, strings converted by the schema)', async () => {
    const result = await apiRegister({
      method: 'password',
      password: GOOD_PASSWORD,
      'traits.email': 'flat@example.com',
      'traits.age': '41',
      'traits.height': '1.5',
      'traits.newsletter': 'false',
    });
    expect(result.status).toBe(200);
    expect((result.body as RegistrationResponse).identity.traits).toEqual({
      email: 'flat@example.com',
      age: 41,
      height: 1.5,
      newsletter: false,
    });
  });

  it('schema errors go on the trait node (4000002 missing, 4000001 otherwise) with the values re-filled', async () => {
    const missing = await apiRegister({ method: 'password', password: GOOD_PASSWORD, traits: { name: { first: 'Kim' } } });
    expect(missing.status).toBe(400);
    const flow = missing.body as FlowShape;
    expect(node(flow, 'traits.email')?.messages?.map((message) => message.id)).toEqual([4000002]);
    expect(nodeValue(flow, 'traits.name.first')).toBe('Kim');
    expect(node(flow, 'password')?.attributes).not.toHaveProperty('value');
    const format = await apiRegister({ method: 'password', password: GOOD_PASSWORD, traits: { email: 'not-an-email' } });
    expect(node(format.body as FlowShape, 'traits.email')?.messages?.map((message) => message.id)).toEqual([4000001]);
    const negative = await apiRegister({ method: 'password', password: GOOD_PASSWORD, traits: { email: 'n@example.com', age: -1 } });
    expect(node(negative.body as FlowShape, 'traits.age')?.messages?.map((message) => message.id)).toEqual([4000001]);
  });

  it('S55: the password goes through the password policy (4000005 on the password node); nothing is created', async () => {
    for (const password of ['short12', 'policy@example.com', 'password123']) {
      const result = await apiRegister({ method: 'password', password, traits: { email: 'policy@example.com' } });
      expect(result.status).toBe(400);
      expect(node(result.body as FlowShape, 'password')?.messages?.map((message) => message.id)).toEqual([4000005]);
    }
    const long = await apiRegister({ method: 'password', password: 'x7'.repeat(32), traits: { email: 'policy@example.com' } });
    expect(long.status).toBe(200);
    expect(
      await queryDatabase(app.databaseUrl, `SELECT 1 FROM identity_credential_identifiers WHERE identifier = 'policy@example.com'`),
    ).toHaveLength(1);
  });

  it('a taken identifier (in any case or Unicode form) is 4000007 and creates nothing (S49)', async () => {
    expect((await apiRegister({ method: 'password', password: GOOD_PASSWORD, traits: { email: 'zoë@example.com' } })).status).toBe(200);
    for (const email of ['ZOË@example.com', 'zoe\u0308@example.com']) {
      const again = await apiRegister({ method: 'password', password: GOOD_PASSWORD, traits: { email } });
      expect(again.status).toBe(400);
      expect(messageIds(again.body as FlowShape)).toEqual([4000007]);
    }
    expect(await queryDatabase(app.databaseUrl, `SELECT 1 FROM identities WHERE traits ->> 'email' ILIKE 'zo%'`)).toHaveLength(1);
  });

  it('S49: control characters, CRLF and oversized values are schema errors, never 500', async () => {
    for (const email of ['a@b.c\r\nBcc: x@evil.example', `${'a'.repeat(10_000)}@example.com`, '\u202Eevil@example.com']) {
      const result = await apiRegister({ method: 'password', password: GOOD_PASSWORD, traits: { email } });
      expect(result.status).toBe(400);
      expect(node(result.body as FlowShape, 'traits.email')?.messages?.[0]?.id).toBe(4000001);
    }
    // U+0000 cannot be stored at all: refused before anything else, in any field.
    for (const body of [{ traits: { email: 'nul\u0000@example.com' } }, { 'traits.email': 'x@example.com', password: 'a\u0000b' }]) {
      const result = await apiRegister({ method: 'password', password: GOOD_PASSWORD, ...body });
      expect(result.status).toBe(400);
      expect((result.body as { error: { id: string } }).error.id).toBe('invalid_request');
    }
    const nulLogin = await apiLogin(app, 'x\u0000@example.com', GOOD_PASSWORD);
    expect(nulLogin.status).toBe(400);
    const unknown = await apiRegister({ method: 'password', password: GOOD_PASSWORD, traits: { email: 'u@example.com', admin: true } });
    expect(unknown.status).toBe(400);
    expect(messageIds(unknown.body as FlowShape)).toEqual([4000001]);
  });

  it('unknown method 4010003; with a session init and submit are 400 session_already_available', async () => {
    const method = await apiRegister({ method: 'oidc', traits: { email: 'm@example.com' } });
    expect(messageIds(method.body as FlowShape)).toEqual([4010003]);
    const registered = await apiRegister({ method: 'password', password: GOOD_PASSWORD, traits: { email: 'has-session@example.com' } });
    const token = (registered.body as RegistrationResponse).session_token;
    const init = await app.public.get<{ error: { id: string } }>('/self-service/registration/api', {
      headers: { 'x-session-token': token },
    });
    expect(init.status).toBe(400);
    expect(init.body.error.id).toBe('session_already_available');
    const fresh = await app.public.get<FlowShape>('/self-service/registration/api');
    const submit = await app.public.post<{ error: { id: string } }>(`/self-service/registration?flow=${fresh.body.id}`, {
      json: { method: 'password', password: GOOD_PASSWORD, traits: { email: 'second@example.com' } },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(submit.status).toBe(400);
    expect(submit.body.error.id).toBe('session_already_available');
  });

  it('expired: fetch 410, submit 302 to a fresh flow with 4040001', async () => {
    const init = await app.public.get<FlowShape>('/self-service/registration/api');
    await expireFlow(app, init.body.id, '1 minute');
    expect((await app.public.get(`/self-service/registration/flows?id=${init.body.id}`)).status).toBe(410);
    const submit = await app.public.post<FlowShape>(`/self-service/registration?flow=${init.body.id}`, { json: { method: 'password' } });
    expect(submit.status).toBe(302);
    expect(messageIds(submit.body)).toEqual([4040001]);
  });
});

describe('registration flow (browser)', () => {
  it('an HTML form post: dotted names, hidden false + checkbox true, numbers; session cookie and 302', async () => {
    const browser = new Browser(app);
    const flow = await browser.startFlow('registration');
    const form = new URLSearchParams([
      ['csrf_token', String(nodeValue(flow, 'csrf_token'))],
      ['method', 'password'],
      ['password', GOOD_PASSWORD],
      ['traits.email', 'form@example.com'],
      ['traits.name.first', 'Fo'],
      ['traits.name.last', 'Rm'],
      ['traits.newsletter', 'false'],
      ['traits.newsletter', 'true'],
      ['traits.age', '27'],
      ['traits.height', '1.85'],
      ['traits.tags', 'x'],
      ['traits.tags', 'y'],
      ['traits.unknown', 'dropped'],
    ]);
    const submit = await browser.postForm(`/self-service/registration?flow=${flow.id}`, form);
    expect(submit.status).toBe(302);
    expect(submit.headers.get('location')).toBe(app.running.config.selfService.defaultBrowserReturnUrl);
    const whoami = await browser.get<SessionShape>('/sessions/whoami');
    expect(whoami.status).toBe(200);
    expect(whoami.body.identity.traits).toEqual({
      email: 'form@example.com',
      name: { first: 'Fo', last: 'Rm' },
      newsletter: true,
      age: 27,
      height: 1.85,
      tags: ['x', 'y'],
    });
  });

  it('an unchecked box (hidden false only) is false; a validation error redirects to the UI with the values kept', async () => {
    const browser = new Browser(app);
    const flow = await browser.startFlow('registration');
    const submit = await browser.postForm(`/self-service/registration?flow=${flow.id}`, {
      csrf_token: String(nodeValue(flow, 'csrf_token')),
      method: 'password',
      password: 'short',
      'traits.email': 'box@example.com',
      'traits.newsletter': 'false',
    });
    expect(submit.status).toBe(302);
    expect(new URL(submit.headers.get('location')!).searchParams.get('flow')).toBe(flow.id);
    const after = await browser.get<FlowShape>(`/self-service/registration/flows?id=${flow.id}`);
    expect(nodeValue(after.body, 'traits.newsletter')).toBe(false);
    expect(nodeValue(after.body, 'traits.email')).toBe('box@example.com');
    expect(node(after.body, 'password')?.messages?.map((message) => message.id)).toEqual([4000005]);
  });

  it('CSRF is enforced (403) and a logged-in browser is sent on', async () => {
    const browser = new Browser(app);
    const flow = await browser.startFlow('registration');
    const refused = await browser.postForm<{ error: { id: string } }>(`/self-service/registration?flow=${flow.id}`, {
      method: 'password',
      password: GOOD_PASSWORD,
      'traits.email': 'csrf@example.com',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.id).toBe('security_csrf_violation');
    expect(
      (
        await browser.postForm(`/self-service/registration?flow=${flow.id}`, {
          csrf_token: String(nodeValue(flow, 'csrf_token')),
          method: 'password',
          password: GOOD_PASSWORD,
          'traits.email': 'csrf@example.com',
        })
      ).status,
    ).toBe(302);
    const again = await browser.get('/self-service/registration/browser');
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe(app.running.config.selfService.defaultBrowserReturnUrl);
  });
});
