import { createHmac, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EventLog } from '../../src/directory-sync/event-log.js';
import { IdentitiesService } from '../../src/identities/identities.service.js';
import { bootApp, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import type { HttpResponse } from '../support/http.js';
import { authorize, basic, createClient, token, type WireClient, type WireTokenResponse } from '../support/oauth.js';
import { tupleAnnouncementsSettled } from '../support/tuples.js';
import { apiLogin, Browser, GOOD_PASSWORD, type FlowShape } from '../support/self-service.js';
import { endSecretGrace } from '../support/time-travel.js';

/**
 * Directory sync end to end: a test plays the directory-sync service, signing every delivery as it
 * does (HMAC-SHA256 over `t + "." + JSON.stringify(payload)`, `t` = Date.now() in milliseconds), and
 * checks the effects through the admin API, /check, self-service and OAuth2.
 */
let app: TestApp;

beforeAll(async () => {
  app = await bootApp({ WEBHOOKS_BODY_LIMIT: '64kb' });
});

afterAll(async () => {
  await app?.close();
});

interface Connection {
  id: string;
  name: string;
  schema_id: string | null;
  groups_namespace: string;
  on_deactivate: string;
  webhook_url: string;
  secret?: string;
  created_at: string;
}

interface Identity {
  id: string;
  state: string;
  traits: Record<string, unknown>;
  verifiable_addresses: { value: string; verified: boolean; status: string }[];
  updated_at: string;
}

interface Summary {
  applied: number;
  duplicate: number;
  failed: number;
  rejected: number;
}

interface LoggedEvent {
  event: string | null;
  object_id: string | null;
  group_id: string | null;
  outcome: string;
  error_code: string | null;
  count: number;
}

type Payload = Record<string, unknown> | Record<string, unknown>[];

async function connect(body: Record<string, unknown> = {}): Promise<Connection & { secret: string }> {
  const created = await app.admin.post<Connection & { secret: string }>('/directory-sync/connections', { json: { name: 'Okta', ...body } });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

/** The signature header exactly as the sender builds it. */
function signature(secret: string, body: string, t: number | string = Date.now()): string {
  return `t=${t},s=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

function deliver(
  connection: { id: string },
  body: string,
  header: string | undefined,
  contentType = 'application/json',
): Promise<HttpResponse<Summary>> {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (header !== undefined) headers['service-signature'] = header;
  return app.public.post<Summary>(`/webhooks/directory-sync/${connection.id}`, { rawBody: body, headers });
}

/** Signs and sends a payload; `t` defaults to now. */
async function send(connection: { id: string; secret: string }, payload: Payload, t: number = Date.now()): Promise<HttpResponse<Summary>> {
  const body = JSON.stringify(payload);
  return deliver(connection, body, signature(connection.secret, body, t));
}

function user(id: string, email: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    first_name: 'Ada',
    last_name: 'Lovelace',
    email,
    active: true,
    raw: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: email, id, employeeNumber: '42' },
    ...extra,
  };
}

function event(kind: string, data: Record<string, unknown>): Record<string, unknown> {
  return { directory_id: 'dir_okta', event: kind, tenant: 'acme', product: 'latchkey', data };
}

function group(id: string, name = `Group ${id}`): Record<string, unknown> {
  return { id, name, raw: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: name, members: [], id } };
}

async function linkedIdentity(connectionId: string, directoryUserId: string): Promise<Identity> {
  const rows = await queryDatabase<{ identity_id: string }>(
    app.databaseUrl,
    'SELECT identity_id FROM directory_sync_users WHERE connection_id = $1 AND directory_user_id = $2',
    [connectionId, directoryUserId],
  );
  expect(rows[0]?.identity_id).toBeTruthy();
  const identity = await app.admin.get<Identity>(`/identities/${rows[0]!.identity_id}`);
  expect(identity.status).toBe(200);
  return identity.body;
}

async function events(connectionId: string, query = ''): Promise<LoggedEvent[]> {
  const response = await app.admin.get<LoggedEvent[]>(`/directory-sync/connections/${connectionId}/events${query}`);
  expect(response.status).toBe(200);
  return response.body;
}

async function identityCount(): Promise<number> {
  const rows = await queryDatabase<{ count: string }>(app.databaseUrl, 'SELECT count(*) FROM identities');
  return Number(rows[0]!.count);
}

function expectIdentityError(response: HttpResponse, status: number, id: string): void {
  expect(response.status, response.text).toBe(status);
  expect((response.body as { error: { id: string; code: number } }).error).toMatchObject({ id, code: status });
}

async function member(namespace: string, groupId: string, identityId: string): Promise<boolean> {
  const query = new URLSearchParams({ namespace, object: groupId, relation: 'member', subject: identityId }).toString();
  const response = await app.admin.get<{ allowed: boolean }>(`/check?${query}`);
  expect([200, 403]).toContain(response.status);
  return response.body.allowed;
}

describe('connections admin API', () => {
  it('creates a connection with a secret shown once, stored sealed, and reads, lists and deletes it', async () => {
    const created = await connect({ on_deactivate: 'delete', groups_namespace: 'teams' });
    expect(created).toMatchObject({ name: 'Okta', schema_id: null, groups_namespace: 'teams', on_deactivate: 'delete' });
    expect(created.webhook_url).toBe(`${app.running.config.urls.issuer}/webhooks/directory-sync/${created.id}`);
    expect(Buffer.from(created.secret, 'base64url').length).toBeGreaterThanOrEqual(32);
    const stored = await queryDatabase<{ secret_sealed: string }>(
      app.databaseUrl,
      'SELECT secret_sealed FROM directory_sync_connections WHERE id = $1',
      [created.id],
    );
    expect(stored[0]!.secret_sealed).not.toContain(created.secret);

    const read = await app.admin.get<Connection>(`/directory-sync/connections/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    expect(read.body).toMatchObject({ id: created.id, on_deactivate: 'delete' });
    expect((await app.admin.get<Connection>(`/admin/directory-sync/connections/${created.id}`)).status).toBe(200);

    await connect();
    const page = await app.admin.get<Connection[]>('/directory-sync/connections?limit=1');
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(1);
    expect(page.body[0]!.secret).toBeUndefined();
    expect(page.headers.get('link')).toContain('rel="next"');

    expect((await app.admin.delete(`/directory-sync/connections/${created.id}`)).status).toBe(204);
    expectIdentityError(await app.admin.get(`/directory-sync/connections/${created.id}`), 404, 'not_found');
    expectIdentityError(await app.admin.delete(`/directory-sync/connections/${created.id}`), 404, 'not_found');
    expectIdentityError(await app.admin.get('/directory-sync/connections/not-a-uuid'), 404, 'not_found');
  });

  it('refuses bad bodies in the identity error shape and writes nothing; needs the admin credential; not on the public port', async () => {
    const before = await queryDatabase<{ count: string }>(app.databaseUrl, 'SELECT count(*) FROM directory_sync_connections');
    for (const body of [
      {},
      { name: '' },
      { name: 'x', on_deactivate: 'suspend' },
      { name: 'x', groups_namespace: 'a:b' },
      { name: 'x', groups_namespace: 'has space' },
      { name: 'x', extra: true },
      { name: 'x', secret: 'chosen-by-caller' },
    ]) {
      expectIdentityError(await app.admin.post('/directory-sync/connections', { json: body }), 400, 'invalid_request');
    }
    expectIdentityError(
      await app.admin.post('/directory-sync/connections', { json: { name: 'x', schema_id: 'nope' } }),
      400,
      'unknown_schema',
    );
    const after = await queryDatabase<{ count: string }>(app.databaseUrl, 'SELECT count(*) FROM directory_sync_connections');
    expect(after[0]!.count).toBe(before[0]!.count);
    expect((await app.anonymousAdmin.get('/directory-sync/connections')).status).toBe(401);
    expect((await app.public.get('/directory-sync/connections')).status).toBe(404);
  });
});

describe('user events', () => {
  it('user.created makes an identity with mapped traits and a verified address, raw kept in the link only', async () => {
    const connection = await connect();
    const response = await send(connection, event('user.created', user('u-ada', 'ada@example.com')));
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ applied: 1, failed: 0 });
    const identity = await linkedIdentity(connection.id, 'u-ada');
    expect(identity.state).toBe('active');
    expect(identity.traits).toEqual({ email: 'ada@example.com', name: { first: 'Ada', last: 'Lovelace' } });
    expect(identity.verifiable_addresses).toEqual([
      expect.objectContaining({ value: 'ada@example.com', verified: true, status: 'completed' }),
    ]);
    const link = await queryDatabase<{ raw: Record<string, unknown> }>(
      app.databaseUrl,
      'SELECT raw FROM directory_sync_users WHERE directory_user_id = $1',
      ['u-ada'],
    );
    expect(link[0]!.raw).toMatchObject({ employeeNumber: '42' });

    const updated = await send(connection, event('user.updated', user('u-ada', 'ada.l@example.com', { first_name: 'Augusta' })));
    expect(updated.body).toMatchObject({ applied: 1 });
    const after = await linkedIdentity(connection.id, 'u-ada');
    expect(after.id).toBe(identity.id);
    expect(after.traits).toEqual({ email: 'ada.l@example.com', name: { first: 'Augusta', last: 'Lovelace' } });

    // The same event again (a new delivery) changes nothing.
    const again = await send(connection, event('user.updated', user('u-ada', 'ada.l@example.com', { first_name: 'Augusta' })));
    expect(again.body).toMatchObject({ applied: 1 });
    expect((await linkedIdentity(connection.id, 'u-ada')).updated_at).toBe(after.updated_at);
  });

  it('links an existing identity with the same e-mail and no link instead of duplicating it', async () => {
    const connection = await connect();
    const existing = await app.admin.post<Identity>('/identities', { json: { traits: { email: 'grace@example.com' } } });
    expect(existing.status).toBe(201);
    const count = await identityCount();
    expect((await send(connection, event('user.created', user('u-grace', 'Grace@Example.com')))).body).toMatchObject({ applied: 1 });
    expect(await identityCount()).toBe(count);
    expect((await linkedIdentity(connection.id, 'u-grace')).id).toBe(existing.body.id);
  });

  it('applies a batch event by event: one that breaks the schema is logged failed, the rest still apply', async () => {
    const connection = await connect();
    const batch = [
      event('user.created', user('b-1', 'b1@example.com')),
      event('user.created', user('b-2', 'not-an-email')),
      event('user.created', user('b-3', 'b3@example.com')),
    ];
    let response: HttpResponse<Summary> | undefined;
    const before = await eventByEventDeliveries();
    const trips = await deliveryRoundTrips(async () => {
      response = await send(connection, batch);
    });
    expect(response!.status).toBe(200);
    expect(response!.body).toEqual({ applied: 2, duplicate: 0, rejected: 0, failed: 1 });
    // The one pass over all three is rolled back, then the failing event alone on the event-by-event pass.
    expect(rollbacks(trips)).toBe(2);
    expect(await eventByEventDeliveries()).toBe(before + 1);
    // A clean delivery stays in its one pass and is not counted.
    expect((await send(connection, event('user.created', user('b-4', 'b4@example.com')))).body).toMatchObject({ applied: 1 });
    expect(await eventByEventDeliveries()).toBe(before + 1);
    expect((await linkedIdentity(connection.id, 'b-1')).traits).toMatchObject({ email: 'b1@example.com' });
    expect((await linkedIdentity(connection.id, 'b-3')).traits).toMatchObject({ email: 'b3@example.com' });
    const failed = await events(connection.id, '?outcome=failed');
    expect(failed).toEqual([
      expect.objectContaining({ event: 'user.created', object_id: 'b-2', outcome: 'failed', error_code: 'invalid_traits' }),
    ]);
    const rows = await queryDatabase(app.databaseUrl, 'SELECT 1 FROM directory_sync_users WHERE directory_user_id = $1', ['b-2']);
    expect(rows).toHaveLength(0);
  });

  it('a burst of 50 concurrent user.updated events for one user ends in the last one', async () => {
    const connection = await connect();
    expect((await send(connection, event('user.created', user('burst', 'burst@example.com')))).status).toBe(200);
    const deliveries: { body: string; header: string }[] = [];
    let t = 0;
    for (let index = 0; index < 50; index += 1) {
      // Date.now() as the sender takes it, one distinct millisecond per event.
      while (Date.now() <= t) await new Promise((resolve) => setTimeout(resolve, 1));
      t = Date.now();
      const body = JSON.stringify(event('user.updated', user('burst', 'burst@example.com', { first_name: `Version ${index}` })));
      deliveries.push({ body, header: signature(connection.secret, body, t) });
    }
    const responses = await Promise.all(deliveries.reverse().map(({ body, header }) => deliver(connection, body, header)));
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    expect((await linkedIdentity(connection.id, 'burst')).traits).toMatchObject({ name: { first: 'Version 49' } });
  });
});

/**
 * The round trips of the one delivery `work` sends: every statement on the pooled connection that
 * claimed it, from its START TRANSACTION to its COMMIT (what the application's pg clients send).
 */
async function deliveryRoundTrips(work: () => Promise<unknown>): Promise<string[]> {
  const spy = vi.spyOn(pg.Client.prototype, 'query');
  let calls: { text: string; client: unknown }[];
  try {
    await work();
  } finally {
    calls = spy.mock.calls.map(([query], index) => ({
      text: typeof query === 'string' ? query : (query as { text: string }).text,
      client: spy.mock.contexts[index],
    }));
    spy.mockRestore();
  }
  const claim = calls.findIndex(({ text }) => text.includes('INSERT INTO directory_sync_deliveries'));
  expect(claim).toBeGreaterThanOrEqual(0);
  const own = calls.filter(({ client }) => client === calls[claim]!.client).map(({ text }) => text);
  const at = own.indexOf(calls[claim]!.text);
  const start = own.lastIndexOf('START TRANSACTION', at);
  const end = own.indexOf('COMMIT', at);
  expect(start).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(at);
  return own.slice(start, end + 1);
}

/** `directory_sync_event_by_event_deliveries_total` as the metrics endpoint shows it now. */
async function eventByEventDeliveries(): Promise<number> {
  const text = (await app.anonymousAdmin.get('/metrics/prometheus')).text;
  const found = /^directory_sync_event_by_event_deliveries_total (\d+)$/m.exec(text);
  expect(found).not.toBeNull();
  return Number(found![1]);
}

/** How often a delivery went back to a savepoint: its one pass, or one event of the event-by-event pass. */
function rollbacks(trips: readonly string[]): number {
  return trips.filter((text) => text.startsWith('ROLLBACK TO SAVEPOINT')).length;
}

/** The log of a connection as (event, object, outcome, error code), in a stable order. */
async function logged(connectionId: string): Promise<string[]> {
  return (await events(connectionId, '?limit=500'))
    .map((entry) => [entry.event, entry.object_id, entry.outcome, entry.error_code ?? '-'].join(' '))
    .sort();
}

describe('a delivery: its events in one pass', () => {
  it('a clean batch of N user.created costs a fixed number of round trips per event', async () => {
    const connection = await connect();
    const size = 10;
    const batch = Array.from({ length: size }, (_, index) => event('user.created', user(`rt-${index}`, `rt-${index}@example.com`)));
    let response: HttpResponse<Summary> | undefined;
    const trips = await deliveryRoundTrips(async () => {
      response = await send(connection, batch);
    });
    expect(response!.body).toEqual({ applied: size, duplicate: 0, rejected: 0, failed: 0 });
    // BEGIN, claim, lock, the pass's savepoint, the users' links, the e-mails' owners, the links' upsert,
    // log, COMMIT; per event the identity's four inserts (identity, identifier, verifiable and recovery
    // address). Event by event it was 5 + 8 per event: a savepoint, the link, the e-mail's owner and the
    // link's upsert each.
    expect(trips).toHaveLength(9 + 4 * size);
    expect(rollbacks(trips)).toBe(0);
    expect((await linkedIdentity(connection.id, 'rt-9')).traits).toMatchObject({ email: 'rt-9@example.com' });
  });

  it('events about one user in one delivery: created, updated, added to a group, deactivated', async () => {
    const connection = await connect();
    const count = await identityCount();
    let response: HttpResponse<Summary> | undefined;
    const trips = await deliveryRoundTrips(async () => {
      response = await send(connection, [
        event('user.created', user('one-m', 'm1@example.com')),
        event('user.updated', user('one-m', 'm2@example.com', { first_name: 'Mary' })),
        event('group.user_added', { ...user('one-m', 'm2@example.com'), group: group('one-g') }),
        event('user.deleted', user('one-m', 'm2@example.com')),
      ]);
    });
    expect(response!.body).toEqual({ applied: 4, duplicate: 0, rejected: 0, failed: 0 });
    // In one pass: the pass's own writes kept its early reads true.
    expect(rollbacks(trips)).toBe(0);
    expect(await identityCount()).toBe(count + 1);
    const identity = await linkedIdentity(connection.id, 'one-m');
    expect(identity.state).toBe('inactive');
    expect(identity.traits).toEqual({ email: 'm2@example.com', name: { first: 'Mary', last: 'Lovelace' } });
    expect(await member('groups', 'one-g', identity.id)).toBe(true);
    expect(await logged(connection.id)).toEqual([
      'group.user_added one-m applied -',
      'user.created one-m applied -',
      'user.deleted one-m applied -',
      'user.updated one-m applied -',
    ]);
  });

  it('with on_deactivate=delete: created, deleted and created again in one delivery leaves one new identity', async () => {
    const connection = await connect({ on_deactivate: 'delete' });
    const count = await identityCount();
    let response: HttpResponse<Summary> | undefined;
    const trips = await deliveryRoundTrips(async () => {
      response = await send(connection, [
        event('user.created', user('again', 'again@example.com')),
        event('user.deleted', user('again', 'again@example.com')),
        event('user.created', user('again', 'again@example.com', { first_name: 'Second' })),
      ]);
    });
    expect(response!.body).toEqual({ applied: 3, duplicate: 0, rejected: 0, failed: 0 });
    // In one pass: the pass's own writes kept its early reads true.
    expect(rollbacks(trips)).toBe(0);
    expect(await identityCount()).toBe(count + 1);
    expect((await linkedIdentity(connection.id, 'again')).traits).toMatchObject({ email: 'again@example.com', name: { first: 'Second' } });
  });

  it('an e-mail freed in a delivery goes to the next user: one deleted, another created with its e-mail', async () => {
    const connection = await connect({ on_deactivate: 'delete' });
    expect((await send(connection, event('user.created', user('leaves', 'shared@example.com')))).body).toMatchObject({ applied: 1 });
    const gone = await linkedIdentity(connection.id, 'leaves');
    let response: HttpResponse<Summary> | undefined;
    const trips = await deliveryRoundTrips(async () => {
      response = await send(connection, [
        event('user.deleted', user('leaves', 'shared@example.com')),
        event('user.created', user('arrives', 'shared@example.com')),
      ]);
    });
    expect(response!.body).toEqual({ applied: 2, duplicate: 0, rejected: 0, failed: 0 });
    // In one pass: the pass's own writes kept its early reads true.
    expect(rollbacks(trips)).toBe(0);
    expectIdentityError(await app.admin.get(`/identities/${gone.id}`), 404, 'not_found');
    const arrived = await linkedIdentity(connection.id, 'arrives');
    expect(arrived.id).not.toBe(gone.id);
    expect(arrived.traits).toMatchObject({ email: 'shared@example.com' });
    const links = await queryDatabase<{ directory_user_id: string; identity_id: string | null }>(
      app.databaseUrl,
      'SELECT directory_user_id, identity_id FROM directory_sync_users WHERE connection_id = $1 ORDER BY directory_user_id',
      [connection.id],
    );
    expect(links).toEqual([
      { directory_user_id: 'arrives', identity_id: arrived.id },
      { directory_user_id: 'leaves', identity_id: null },
    ]);
  });

  it('an e-mail moved in a delivery: the user who had it changes e-mail, a new user gets it', async () => {
    const connection = await connect();
    expect((await send(connection, event('user.created', user('mover', 'moved@example.com')))).body).toMatchObject({ applied: 1 });
    const mover = await linkedIdentity(connection.id, 'mover');
    const count = await identityCount();
    let response: HttpResponse<Summary> | undefined;
    const trips = await deliveryRoundTrips(async () => {
      response = await send(connection, [
        event('user.updated', user('mover', 'moved.new@example.com')),
        event('user.created', user('taker', 'moved@example.com')),
      ]);
    });
    expect(response!.body).toEqual({ applied: 2, duplicate: 0, rejected: 0, failed: 0 });
    // In one pass: the pass's own writes kept its early reads true.
    expect(rollbacks(trips)).toBe(0);
    expect(await identityCount()).toBe(count + 1);
    expect((await linkedIdentity(connection.id, 'mover')).traits).toMatchObject({ email: 'moved.new@example.com' });
    const taker = await linkedIdentity(connection.id, 'taker');
    expect(taker.id).not.toBe(mover.id);
    expect(taker.traits).toMatchObject({ email: 'moved@example.com' });
  });

  it('an unlinked identity is adopted by the first user with its e-mail; a second one in the same delivery fails', async () => {
    const connection = await connect();
    const existing = await app.admin.post<Identity>('/identities', { json: { traits: { email: 'adopted@example.com' } } });
    expect(existing.status).toBe(201);
    const count = await identityCount();
    let response: HttpResponse<Summary> | undefined;
    const trips = await deliveryRoundTrips(async () => {
      response = await send(connection, [
        event('user.created', user('first-owner', 'Adopted@example.com')),
        event('user.created', user('second-owner', 'adopted@example.com')),
        event('user.created', user('bystander', 'bystander@example.com')),
      ]);
    });
    expect(response!.body).toEqual({ applied: 2, duplicate: 0, rejected: 0, failed: 1 });
    // The second owner's conflict sends the delivery event by event: the pass, then that event, rolled back.
    expect(rollbacks(trips)).toBe(2);
    expect(await identityCount()).toBe(count + 1);
    expect((await linkedIdentity(connection.id, 'first-owner')).id).toBe(existing.body.id);
    expect(
      await queryDatabase(app.databaseUrl, 'SELECT 1 FROM directory_sync_users WHERE directory_user_id = $1', ['second-owner']),
    ).toHaveLength(0);
    expect(await logged(connection.id)).toEqual([
      'user.created bystander applied -',
      'user.created first-owner applied -',
      'user.created second-owner failed conflict',
    ]);
  });
});

describe('signature and envelope checks (S58)', () => {
  let connection: Connection & { secret: string };
  const payload = (): Record<string, unknown> => event('user.created', user(`sig-${randomUUID()}`, `${randomUUID()}@example.com`));

  beforeAll(async () => {
    connection = await connect();
  });

  it('refuses bad, missing and extra signature parts with 401, applies nothing and logs rejected', async () => {
    const body = JSON.stringify(payload());
    const t = Date.now();
    const good = createHmac('sha256', connection.secret).update(`${t}.${body}`).digest('hex');
    const count = await identityCount();
    const headers = [
      undefined,
      '',
      `t=${t}`,
      `s=${good}`,
      `t=${t},s=${good},v1=${good}`,
      `t=${t},s=${good.toUpperCase()}`,
      `t=${t},s=${good.slice(0, 62)}`,
      `t=${t},s=${good}00`,
      `t=${t},s=${'z'.repeat(64)}`,
      `t=${t},s=${'0'.repeat(64)}`,
      `t=${t + 1},s=${good}`,
      signature('another-secret', body, t),
      `s=${good},t=${t},t=${t}`,
    ];
    for (const header of headers) expectIdentityError(await deliver(connection, body, header), 401, 'invalid_signature');
    // The signature covers the raw bytes: the same object serialized differently does not verify.
    const reformatted = JSON.stringify(JSON.parse(body), null, 2);
    expectIdentityError(await deliver(connection, reformatted, `t=${t},s=${good}`), 401, 'invalid_signature');
    expect(await identityCount()).toBe(count);
    const rejected = await events(connection.id, '?outcome=rejected');
    expect(rejected.reduce((sum, entry) => sum + entry.count, 0)).toBeGreaterThanOrEqual(headers.length + 1);
    expect(rejected[0]).toMatchObject({ event: null, error_code: 'invalid_signature' });
  });

  it('counts a flood of refused deliveries on one log entry per reason and minute, and every refusal in the metrics', async () => {
    const flooded = await connect();
    const body = JSON.stringify(payload());
    const counted = async (reason: string): Promise<number> => {
      const text = (await app.anonymousAdmin.get('/metrics/prometheus')).text;
      const found = new RegExp(`^directory_sync_rejected_deliveries_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec(text);
      return Number(found?.[1] ?? 0);
    };
    const before = [await counted('invalid_signature'), await counted('stale_timestamp'), await counted('not_found')];
    for (let i = 0; i < 20; i += 1)
      expectIdentityError(await deliver(flooded, body, `t=${Date.now()},s=${'0'.repeat(64)}`), 401, 'invalid_signature');
    for (let i = 0; i < 3; i += 1) expectIdentityError(await send(flooded, payload(), Date.now() - 6 * 60_000), 401, 'stale_timestamp');
    expectIdentityError(await deliver({ id: randomUUID() }, body, signature(flooded.secret, body)), 404, 'not_found');

    const rejected = await events(flooded.id, '?outcome=rejected');
    expect(rejected.map((entry) => [entry.error_code, entry.count]).sort()).toEqual([
      ['invalid_signature', 20],
      ['stale_timestamp', 3],
    ]);
    const after = [await counted('invalid_signature'), await counted('stale_timestamp'), await counted('not_found')];
    expect(after.map((value, index) => value - before[index]!)).toEqual([20, 3, 1]);
    expect((await send(flooded, payload())).status).toBe(200);
    expect((await events(flooded.id, '?outcome=applied'))[0]).toMatchObject({ outcome: 'applied', count: 1 });
  });

  it('refuses stale and future timestamps beyond five minutes, accepts them inside, and seconds by magnitude', async () => {
    const count = await identityCount();
    expectIdentityError(await send(connection, payload(), Date.now() - 6 * 60_000), 401, 'stale_timestamp');
    expectIdentityError(await send(connection, payload(), Date.now() + 6 * 60_000), 401, 'stale_timestamp');
    expect(await identityCount()).toBe(count);
    expect((await send(connection, payload(), Date.now() - 4 * 60_000)).status).toBe(200);
    expect((await send(connection, payload(), Date.now() + 4 * 60_000)).status).toBe(200);
    expect((await send(connection, payload(), Math.floor(Date.now() / 1000))).status).toBe(200);
    expectIdentityError(await send(connection, payload(), Math.floor(Date.now() / 1000) - 600), 401, 'stale_timestamp');
  });

  it('answers a replay of an accepted (t, s) 200 and applies nothing, logged duplicate', async () => {
    const body = JSON.stringify(event('user.created', user('replayed', 'replayed@example.com')));
    const header = signature(connection.secret, body);
    expect((await deliver(connection, body, header)).body).toMatchObject({ applied: 1 });
    const identity = await linkedIdentity(connection.id, 'replayed');
    await app.admin.put(`/identities/${identity.id}`, { json: { traits: { email: 'replayed@example.com', name: { first: 'Changed' } } } });
    const replay = await deliver(connection, body, header);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ applied: 0, duplicate: 1, rejected: 0, failed: 0 });
    expect((await linkedIdentity(connection.id, 'replayed')).traits).toMatchObject({ name: { first: 'Changed' } });
    expect((await events(connection.id, '?outcome=duplicate'))[0]).toMatchObject({ event: 'user.created', object_id: 'replayed' });
  });

  it('applies one of two identical deliveries sent at the same time', async () => {
    const body = JSON.stringify(event('user.created', user('twice', 'twice@example.com')));
    const header = signature(connection.secret, body);
    const count = await identityCount();
    const answers = await Promise.all([deliver(connection, body, header), deliver(connection, body, header)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers.map((answer) => answer.body.applied).sort()).toEqual([0, 1]);
    expect(answers.map((answer) => answer.body.duplicate).sort()).toEqual([0, 1]);
    expect(await identityCount()).toBe(count + 1);
  });

  it('unknown connection 404, malformed envelope 400, other content type 415, oversized body 413: nothing applied', async () => {
    const count = await identityCount();
    const body = JSON.stringify(payload());
    expectIdentityError(await deliver({ id: randomUUID() }, body, signature(connection.secret, body)), 404, 'not_found');
    expectIdentityError(await deliver({ id: 'not-a-uuid' }, body, signature(connection.secret, body)), 404, 'not_found');
    for (const malformed of [
      'not json',
      '[]',
      '"text"',
      JSON.stringify({ event: 'user.exploded', directory_id: 'd', tenant: 't', product: 'p', data: { id: 'x' } }),
      JSON.stringify(event('user.created', { email: 'no-id@example.com' })),
      JSON.stringify(event('user.created', { id: 'x', active: 'yes' })),
      JSON.stringify(event('group.user_added', user('x', 'x@example.com'))),
      JSON.stringify([payload(), { event: 'user.created' }]),
      JSON.stringify(event('group.created', { id: 'g'.repeat(65), name: 'long' })),
    ]) {
      expectIdentityError(await deliver(connection, malformed, signature(connection.secret, malformed)), 400, 'malformed_envelope');
    }
    const form = 'a=b';
    expectIdentityError(
      await deliver(connection, form, signature(connection.secret, form), 'application/x-www-form-urlencoded'),
      415,
      'unsupported_media_type',
    );
    const huge = JSON.stringify(event('user.created', user('huge', 'huge@example.com', { raw: { blob: 'x'.repeat(70 * 1024) } })));
    expectIdentityError(await deliver(connection, huge, signature(connection.secret, huge)), 413, 'payload_too_large');
    expect(await identityCount()).toBe(count);
  });
});

describe('secret rotation', () => {
  it('a new secret verifies at once and the old one during the grace period only', async () => {
    const connection = await connect();
    const rotated = await app.admin.post<Connection & { secret: string; previous_secret_expires_at: string }>(
      `/directory-sync/connections/${connection.id}/secret`,
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(connection.secret);
    const graceMs = Date.parse(rotated.body.previous_secret_expires_at) - Date.now();
    expect(graceMs).toBeGreaterThan(23 * 3600 * 1000);
    expect(graceMs).toBeLessThanOrEqual(24 * 3600 * 1000);
    expect((await app.admin.get<Connection>(`/directory-sync/connections/${connection.id}`)).body.secret).toBeUndefined();

    const fresh = { id: connection.id, secret: rotated.body.secret };
    expect((await send(connection, event('user.created', user('r-old', 'r-old@example.com')))).status).toBe(200);
    expect((await send(fresh, event('user.created', user('r-new', 'r-new@example.com')))).status).toBe(200);

    await endSecretGrace(app, connection.id, '1 second');
    expectIdentityError(await send(connection, event('user.created', user('r-late', 'r-late@example.com'))), 401, 'invalid_signature');
    expect((await send(fresh, event('user.created', user('r-late', 'r-late@example.com')))).status).toBe(200);
    expectIdentityError(await app.admin.post(`/directory-sync/connections/${randomUUID()}/secret`), 404, 'not_found');
  });
});

describe('deactivation', () => {
  let client: WireClient;

  beforeAll(async () => {
    client = await createClient(app, {
      redirect_uris: ['https://app.example/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: 'openid offline_access',
    });
  });

  /** An identity with a password, a self-service session and OAuth2 tokens. */
  async function signedIn(connection: Connection & { secret: string }, directoryUserId: string, email: string) {
    expect((await send(connection, event('user.created', user(directoryUserId, email)))).body).toMatchObject({ applied: 1 });
    const identity = await linkedIdentity(connection.id, directoryUserId);
    // Directory users have no password; one is set here so that the identity can log in.
    await app.running.app.get(IdentitiesService).updatePassword(identity.id, GOOD_PASSWORD);
    const login = await apiLogin(app, email, GOOD_PASSWORD);
    expect(login.status, login.text).toBe(200);
    const { parameters } = await authorize(app, client.client_id, { subject: identity.id });
    const tokens = await token(
      app,
      { grant_type: 'authorization_code', code: parameters['code']!, redirect_uri: 'https://app.example/cb' },
      basic(client.client_id, client.client_secret!),
    );
    expect(tokens.status).toBe(200);
    const tokenSet = tokens.body as WireTokenResponse;
    return { identity, sessionToken: login.body.session_token, accessToken: tokenSet.access_token, refreshToken: tokenSet.refresh_token! };
  }

  async function introspect(value: string): Promise<boolean> {
    const response = await app.admin.post<{ active: boolean }>('/oauth2/introspect', { form: { token: value } });
    expect(response.status).toBe(200);
    return response.body.active;
  }

  it('active: false makes the identity inactive and ends its sessions, login sessions and tokens; it cannot log in', async () => {
    const connection = await connect();
    const { identity, sessionToken, accessToken, refreshToken } = await signedIn(connection, 'leaver', 'leaver@example.com');
    await queryDatabase(
      app.databaseUrl,
      `INSERT INTO oauth2_authentication_sessions (id, token_hash, subject, authenticated_at, remember, expires_at)
       VALUES ($1, $2, $3, now(), true, now() + interval '1 day')`,
      [randomUUID(), randomUUID().replace(/-/g, ''), identity.id],
    );
    expect((await app.public.get('/sessions/whoami', { headers: { 'x-session-token': sessionToken } })).status).toBe(200);
    expect(await introspect(accessToken)).toBe(true);

    const response = await send(connection, event('user.updated', user('leaver', 'leaver@example.com', { active: false })));
    expect(response.body).toMatchObject({ applied: 1 });
    expect((await app.admin.get<Identity>(`/identities/${identity.id}`)).body.state).toBe('inactive');
    expect((await app.public.get('/sessions/whoami', { headers: { 'x-session-token': sessionToken } })).status).toBe(401);
    expect(await introspect(accessToken)).toBe(false);
    const refreshed = await token(
      app,
      { grant_type: 'refresh_token', refresh_token: refreshToken },
      basic(client.client_id, client.client_secret!),
    );
    expect(refreshed.status).toBe(400);
    const loginSessions = await queryDatabase(app.databaseUrl, 'SELECT 1 FROM oauth2_authentication_sessions WHERE subject = $1', [
      identity.id,
    ]);
    expect(loginSessions).toHaveLength(0);

    const login = await apiLogin(app, 'leaver@example.com', GOOD_PASSWORD);
    expect(login.status).toBe(400);
    const messages = ((login.body as unknown as FlowShape).ui.messages ?? []).map((message) => message.id);
    expect(messages).toContain(4010011);
    // Recovery would sign it in: its link counts as invalid, and no session is issued.
    const minted = await app.admin.post<{ recovery_link: string }>('/recovery/link', { json: { identity_id: identity.id } });
    expect(minted.status).toBe(200);
    const link = new URL(minted.body.recovery_link);
    const browser = new Browser(app);
    const follow = await browser.get(`${link.pathname}${link.search}`);
    expect(follow.status).toBe(302);
    expect(new URL(follow.headers.get('location')!).pathname).toBe(new URL(app.running.config.selfService.urls.recovery).pathname);
    expect((await browser.get('/sessions/whoami')).status).toBe(401);

    // Reactivated by the directory, it can log in again.
    expect((await send(connection, event('user.updated', user('leaver', 'leaver@example.com')))).body).toMatchObject({ applied: 1 });
    expect((await app.admin.get<Identity>(`/identities/${identity.id}`)).body.state).toBe('active');
    expect((await apiLogin(app, 'leaver@example.com', GOOD_PASSWORD)).status).toBe(200);
  });

  it('the admin sets the state too; a bad state is a 400', async () => {
    const created = await app.admin.post<Identity>('/identities', {
      json: { traits: { email: 'dormant@example.com' }, state: 'inactive' },
    });
    expect(created.status).toBe(201);
    expect(created.body.state).toBe('inactive');
    const updated = await app.admin.put<Identity>(`/identities/${created.body.id}`, {
      json: { traits: { email: 'dormant@example.com' }, state: 'active' },
    });
    expect(updated.body.state).toBe('active');
    expectIdentityError(
      await app.admin.post('/identities', { json: { traits: { email: 'x@example.com' }, state: 'banned' } }),
      400,
      'invalid_request',
    );
  });

  it('with on_deactivate=delete, user.deleted deletes the identity, its memberships and its tokens', async () => {
    const connection = await connect({ on_deactivate: 'delete', groups_namespace: 'staff' });
    const { identity, accessToken } = await signedIn(connection, 'gone', 'gone@example.com');
    expect(
      (await send(connection, event('group.user_added', { ...user('gone', 'gone@example.com'), group: group('g-staff') }))).body,
    ).toMatchObject({
      applied: 1,
    });
    expect(await member('staff', 'g-staff', identity.id)).toBe(true);

    expect((await send(connection, event('user.deleted', user('gone', 'gone@example.com', { active: false })))).body).toMatchObject({
      applied: 1,
    });
    expectIdentityError(await app.admin.get(`/identities/${identity.id}`), 404, 'not_found');
    expect(await member('staff', 'g-staff', identity.id)).toBe(false);
    expect(await introspect(accessToken)).toBe(false);
  });
});

describe('groups', () => {
  it('keeps memberships as tuples in the groups namespace, visible through /check', async () => {
    const connection = await connect();
    expect(connection.groups_namespace).toBe('groups');
    await send(connection, [
      event('user.created', user('g-ann', 'ann@example.com')),
      event('user.created', user('g-bob', 'bob@example.com')),
    ]);
    const ann = await linkedIdentity(connection.id, 'g-ann');
    const bob = await linkedIdentity(connection.id, 'g-bob');

    expect((await send(connection, event('group.created', group('eng', 'Engineering')))).body).toMatchObject({ applied: 1 });
    const added = await send(connection, [
      event('group.user_added', { ...user('g-ann', 'ann@example.com'), group: group('eng', 'Engineering') }),
      event('group.user_added', { ...user('g-bob', 'bob@example.com'), group: group('eng', 'Engineering') }),
      event('group.user_added', { ...user('nobody', 'nobody@example.com'), group: group('eng', 'Engineering') }),
    ]);
    expect(added.body).toEqual({ applied: 2, duplicate: 0, rejected: 0, failed: 1 });
    expect((await events(connection.id, '?outcome=failed'))[0]).toMatchObject({
      object_id: 'nobody',
      group_id: 'eng',
      error_code: 'unknown_user',
    });
    expect(await member('groups', 'eng', ann.id)).toBe(true);
    expect(await member('groups', 'eng', bob.id)).toBe(true);

    expect((await send(connection, event('group.updated', group('eng', 'Engineering & Research')))).body).toMatchObject({ applied: 1 });
    const names = await queryDatabase<{ name: string }>(
      app.databaseUrl,
      'SELECT name FROM directory_sync_groups WHERE connection_id = $1',
      [connection.id],
    );
    expect(names).toEqual([{ name: 'Engineering & Research' }]);

    await send(connection, event('group.user_removed', { ...user('g-bob', 'bob@example.com'), group: group('eng') }));
    expect(await member('groups', 'eng', ann.id)).toBe(true);
    expect(await member('groups', 'eng', bob.id)).toBe(false);

    const listed = await app.admin.get<{ relation_tuples: unknown[] }>('/relation-tuples?namespace=groups&object=eng');
    expect(listed.status).toBe(200);
    expect(listed.body.relation_tuples).toHaveLength(1);

    expect((await send(connection, event('group.deleted', group('eng')))).body).toMatchObject({ applied: 1 });
    expect(await member('groups', 'eng', ann.id)).toBe(false);
    expect(
      await queryDatabase(app.databaseUrl, 'SELECT 1 FROM directory_sync_groups WHERE connection_id = $1', [connection.id]),
    ).toHaveLength(0);
  });
});

describe('check cache', () => {
  it('is kept when an event changes no tuple: a membership that exists, a deleted user in no group', async () => {
    const connection = await connect({ on_deactivate: 'delete', groups_namespace: 'calm' });
    await send(connection, [
      event('user.created', user('c-ann', 'c-ann@example.com')),
      event('user.created', user('c-bob', 'c-bob@example.com')),
      event('user.created', user('c-cid', 'c-cid@example.com')),
    ]);
    const ann = await linkedIdentity(connection.id, 'c-ann');
    const bob = await linkedIdentity(connection.id, 'c-bob');
    const addAnn = (): Promise<HttpResponse<Summary>> =>
      send(connection, event('group.user_added', { ...user('c-ann', 'c-ann@example.com'), group: group('quiet') }));
    expect((await addAnn()).body).toMatchObject({ applied: 1 });
    const [stored] = await queryDatabase<{ namespace_id: number }>(
      app.databaseUrl,
      'SELECT namespace_id FROM relation_tuples WHERE subject_key = $1',
      [`i:${ann.id}`],
    );
    const namespaceId = stored!.namespace_id;
    await tupleAnnouncementsSettled(app, 'calm', namespaceId);
    const addBobDirectly = (object: string): Promise<unknown> =>
      queryDatabase(app.databaseUrl, `INSERT INTO relation_tuples VALUES ($1, $2, 'member', $3)`, [namespaceId, object, `i:${bob.id}`]);

    // Bob's answer is cached, then made stale behind the service's back: only a drop would show it.
    expect(await member('calm', 'quiet', bob.id)).toBe(false);
    await addBobDirectly('quiet');
    expect((await addAnn()).body).toMatchObject({ applied: 1 });
    expect(await member('calm', 'quiet', bob.id)).toBe(false);

    expect(await member('calm', 'still', bob.id)).toBe(false);
    await addBobDirectly('still');
    expect((await send(connection, event('user.deleted', user('c-cid', 'c-cid@example.com')))).body).toMatchObject({ applied: 1 });
    expect(await member('calm', 'still', bob.id)).toBe(false);
  });
});

describe('another instance on the same database', () => {
  let second: TestApp;

  beforeAll(async () => {
    second = await bootApp({}, { databaseUrl: app.databaseUrl });
  });

  afterAll(async () => {
    await second?.close();
  });

  /** Polls `second`'s /check until it answers `allowed` (announcements between instances are asynchronous). */
  async function eventually(namespace: string, groupId: string, identityId: string, allowed: boolean): Promise<void> {
    const query = new URLSearchParams({ namespace, object: groupId, relation: 'member', subject: identityId }).toString();
    const deadline = Date.now() + 5000;
    for (;;) {
      const response = await second.admin.get<{ allowed: boolean }>(`/check?${query}`);
      if (response.body.allowed === allowed || Date.now() > deadline) {
        expect(response.body.allowed).toBe(allowed);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("knows a new connection's groups namespace and sees membership changes made on the first", async () => {
    const connection = await connect({ groups_namespace: 'crews' });
    await send(connection, event('user.created', user('x-1', 'x1@example.com')));
    const identity = await linkedIdentity(connection.id, 'x-1');
    await eventually('crews', 'deck', identity.id, false);
    await send(connection, event('group.user_added', { ...user('x-1', 'x1@example.com'), group: group('deck') }));
    await eventually('crews', 'deck', identity.id, true);
    await send(connection, event('group.user_removed', { ...user('x-1', 'x1@example.com'), group: group('deck') }));
    await eventually('crews', 'deck', identity.id, false);
    const listed = await second.admin.get<{ relation_tuples: unknown[] }>('/relation-tuples?namespace=crews');
    expect(listed.status).toBe(200);
  });
});

describe('event log', () => {
  it('lists received events newest first with limit/offset and Link, filters by outcome, and expires old entries', async () => {
    const connection = await connect();
    await send(connection, [
      event('user.created', user('log-1', 'log1@example.com')),
      event('user.created', user('log-2', 'log2@example.com')),
    ]);
    const page = await app.admin.get<LoggedEvent[]>(`/directory-sync/connections/${connection.id}/events?limit=1`);
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(1);
    expect(page.headers.get('link')).toContain('rel="next"');
    expect(page.body[0]).toMatchObject({ event: 'user.created', outcome: 'applied', error_code: null });
    expect(await events(connection.id, '?outcome=failed')).toEqual([]);
    expectIdentityError(await app.admin.get(`/directory-sync/connections/${connection.id}/events?outcome=lost`), 400, 'invalid_request');
    expectIdentityError(await app.admin.get(`/directory-sync/connections/${randomUUID()}/events`), 404, 'not_found');

    const log = app.running.app.get(EventLog);
    await log.purge(new Date(Date.now() + 29 * 24 * 3600 * 1000));
    expect(await events(connection.id)).toHaveLength(2);
    await log.purge(new Date(Date.now() + 31 * 24 * 3600 * 1000));
    expect(await events(connection.id)).toHaveLength(0);
  });
});

describe('another schema: WEBHOOKS_TRAITS_MAPPING, unverified addresses, user.deleted deactivates', () => {
  const EMPLOYEE = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      traits: {
        type: 'object',
        properties: {
          work_email: {
            type: 'string',
            format: 'email',
            'ory.sh/kratos': {
              credentials: { password: { identifier: true } },
              verification: { via: 'email' },
              recovery: { via: 'email' },
            },
          },
          given_name: { type: 'string' },
          department: { type: 'string' },
        },
        required: ['work_email', 'department'],
        additionalProperties: false,
      },
    },
  };
  let other: TestApp;

  beforeAll(async () => {
    other = await bootApp({
      IDENTITY_SCHEMAS: JSON.stringify([{ id: 'employee', url: `base64://${Buffer.from(JSON.stringify(EMPLOYEE)).toString('base64')}` }]),
      WEBHOOKS_TRAITS_MAPPING: JSON.stringify({
        employee: { work_email: 'email', given_name: 'first_name', department: 'raw.department' },
      }),
      WEBHOOKS_VERIFY_ADDRESSES: 'false',
    });
  });

  afterAll(async () => {
    await other?.close();
  });

  it('maps traits as configured, leaves addresses unverified, and deactivates on user.deleted', async () => {
    const created = await other.admin.post<Connection & { secret: string }>('/directory-sync/connections', {
      json: { name: 'Entra', schema_id: 'employee' },
    });
    expect(created.status).toBe(201);
    const connection = created.body;
    const post = async (payload: Payload): Promise<HttpResponse<Summary>> => {
      const body = JSON.stringify(payload);
      return other.public.post<Summary>(`/webhooks/directory-sync/${connection.id}`, {
        rawBody: body,
        headers: { 'content-type': 'application/json', 'service-signature': signature(connection.secret, body) },
      });
    };
    const data = user('e-1', 'emp@example.com', { raw: { department: 'Finance' } });
    expect((await post(event('user.created', data))).body).toMatchObject({ applied: 1 });
    const rows = await queryDatabase<{ identity_id: string }>(
      other.databaseUrl,
      'SELECT identity_id FROM directory_sync_users WHERE directory_user_id = $1',
      ['e-1'],
    );
    const identity = (await other.admin.get<Identity & { schema_id: string }>(`/identities/${rows[0]!.identity_id}`)).body;
    expect(identity.schema_id).toBe('employee');
    expect(identity.traits).toEqual({ work_email: 'emp@example.com', given_name: 'Ada', department: 'Finance' });
    expect(identity.verifiable_addresses).toEqual([
      expect.objectContaining({ value: 'emp@example.com', verified: false, status: 'pending' }),
    ]);

    // Without the required department the schema refuses the traits: failed, identity unchanged.
    expect((await post(event('user.updated', user('e-1', 'emp@example.com')))).body).toMatchObject({ failed: 1 });
    expect((await other.admin.get<Identity>(`/identities/${identity.id}`)).body.traits).toMatchObject({ department: 'Finance' });

    expect((await post(event('user.deleted', data))).body).toMatchObject({ applied: 1 });
    const after = (await other.admin.get<Identity>(`/identities/${identity.id}`)).body;
    expect(after.state).toBe('inactive');
    expect(after.traits).toEqual(identity.traits);
  });
});
