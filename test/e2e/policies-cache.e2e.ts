import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import type { HttpClient } from '../support/http.js';

const base = '/engines/acp/service';

async function allowedStatus(client: HttpClient, flavor: string, input: Record<string, unknown>): Promise<number> {
  return (await client.post(`${base}/${flavor}/allowed`, { json: input })).status;
}

/** Polls until the decision is `expected` (another instance hears of a change over LISTEN/NOTIFY). */
async function eventually(
  client: HttpClient,
  flavor: string,
  input: Record<string, unknown>,
  expected: number,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 0;
  while (Date.now() < deadline) {
    last = await allowedStatus(client, flavor, input);
    if (last === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(last, `decision for ${JSON.stringify(input)}`).toBe(expected);
}

async function put(client: HttpClient, path: string, json: unknown): Promise<void> {
  const response = await client.put(path, { json });
  expect(response.status, response.text).toBe(200);
}

describe('the decision cache on one instance', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await bootApp();
  });

  afterAll(async () => {
    await app.close();
  });

  it('sees each policy write at once: create, change effect, delete', async () => {
    const request = { subject: 'users:alice', resource: 'docs:1', action: 'read' };
    expect(await allowedStatus(app.admin, 'glob', request)).toBe(403);
    await put(app.admin, `${base}/glob/policies`, {
      id: 'p',
      effect: 'allow',
      subjects: ['users:*'],
      resources: ['docs:*'],
      actions: ['read'],
    });
    expect(await allowedStatus(app.admin, 'glob', request)).toBe(200);
    await put(app.admin, `${base}/glob/policies`, {
      id: 'p',
      effect: 'deny',
      subjects: ['users:*'],
      resources: ['docs:*'],
      actions: ['read'],
    });
    expect(await allowedStatus(app.admin, 'glob', request)).toBe(403);
    await put(app.admin, `${base}/glob/policies`, {
      id: 'p',
      effect: 'allow',
      subjects: ['users:*'],
      resources: ['docs:*'],
      actions: ['read'],
    });
    expect(await allowedStatus(app.admin, 'glob', request)).toBe(200);
    expect((await app.admin.delete(`${base}/glob/policies/p`)).status).toBe(204);
    expect(await allowedStatus(app.admin, 'glob', request)).toBe(403);
  });

  it('sees each role write at once: membership added, removed, role replaced, role deleted', async () => {
    const request = { subject: 'users:bob', resource: 'docs:2', action: 'write' };
    await put(app.admin, `${base}/exact/policies`, {
      id: 'writers-write',
      effect: 'allow',
      subjects: ['writers'],
      resources: ['docs:2'],
      actions: ['write'],
    });
    await put(app.admin, `${base}/exact/roles`, { id: 'writers', members: [] });
    expect(await allowedStatus(app.admin, 'exact', request)).toBe(403);
    await put(app.admin, `${base}/exact/roles/writers/members`, { members: ['users:bob'] });
    expect(await allowedStatus(app.admin, 'exact', request)).toBe(200);
    expect((await app.admin.delete(`${base}/exact/roles/writers/members/users:bob`)).status).toBe(200);
    expect(await allowedStatus(app.admin, 'exact', request)).toBe(403);
    await put(app.admin, `${base}/exact/roles`, { id: 'writers', members: ['users:bob'] });
    expect(await allowedStatus(app.admin, 'exact', request)).toBe(200);
    expect((await app.admin.delete(`${base}/exact/roles/writers`)).status).toBe(204);
    expect(await allowedStatus(app.admin, 'exact', request)).toBe(403);
  });

  it('keeps answering right while writes and decisions interleave', async () => {
    const writes: Array<Promise<unknown>> = [];
    for (let i = 0; i < 40; i += 1) {
      writes.push(
        app.admin.put(`${base}/regex/policies`, {
          json: { id: `burst-${i}`, effect: 'allow', subjects: ['<.*>'], resources: [`burst:${i}`], actions: ['go'] },
        }),
      );
      writes.push(allowedStatus(app.admin, 'regex', { subject: 's', resource: `burst:${i}`, action: 'go' }));
    }
    await Promise.all(writes);
    for (let i = 0; i < 40; i += 1)
      expect(await allowedStatus(app.admin, 'regex', { subject: 's', resource: `burst:${i}`, action: 'go' })).toBe(200);
  });
});

describe('two instances on one database', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await bootApp();
    second = await bootApp({}, { databaseUrl: first.databaseUrl });
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('a policy written on one instance is applied by the other', async () => {
    const request = { subject: 'users:carol', resource: 'reports:q1', action: 'read' };
    expect(await allowedStatus(second.admin, 'regex', request)).toBe(403);
    await put(first.admin, `${base}/regex/policies`, {
      id: 'reports',
      effect: 'allow',
      subjects: ['users:<.*>'],
      resources: ['reports:<.*>'],
      actions: ['read'],
    });
    await eventually(second.admin, 'regex', request, 200);
    await put(first.admin, `${base}/regex/policies`, {
      id: 'reports-deny',
      effect: 'deny',
      subjects: ['users:carol'],
      resources: ['reports:q1'],
      actions: ['read'],
    });
    await eventually(second.admin, 'regex', request, 403);
    expect((await first.admin.delete(`${base}/regex/policies/reports-deny`)).status).toBe(204);
    await eventually(second.admin, 'regex', request, 200);
  });

  it('a role change on one instance is applied by the other', async () => {
    const request = { subject: 'users:dave', resource: 'audits:q2', action: 'read' };
    await put(first.admin, `${base}/regex/policies`, {
      id: 'auditors',
      effect: 'allow',
      subjects: ['roles:auditors'],
      resources: ['audits:<.*>'],
      actions: ['read'],
    });
    await put(first.admin, `${base}/regex/roles`, { id: 'roles:auditors', members: [] });
    await eventually(second.admin, 'regex', request, 403);
    await put(second.admin, `${base}/regex/roles/roles:auditors/members`, { members: ['users:dave'] });
    await eventually(first.admin, 'regex', request, 200);
    await eventually(second.admin, 'regex', request, 200);
  });

  it('after the notification connection drops, an instance reloads and catches up on what it missed', async () => {
    const request = { subject: 'users:erin', resource: 'vault:1', action: 'open' };
    expect(await allowedStatus(second.admin, 'exact', request)).toBe(403);
    const databaseName = new URL(first.databaseUrl).pathname.slice(1);
    await queryDatabase(
      first.databaseUrl.replace(/\/[^/]+$/, '/postgres'),
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'latchkey-notify'`,
      [databaseName],
    );
    await put(first.admin, `${base}/exact/policies`, {
      id: 'vault',
      effect: 'allow',
      subjects: ['users:erin'],
      resources: ['vault:1'],
      actions: ['open'],
    });
    await eventually(second.admin, 'exact', request, 200, 15_000);
  });
});

describe('durability', () => {
  it('policies and roles survive a restart and decide the same', async () => {
    const app = await bootApp();
    const databaseUrl = app.databaseUrl;
    await put(app.admin, `${base}/glob/policies`, {
      id: 'kept',
      effect: 'allow',
      subjects: ['team:*'],
      resources: ['drive:**'],
      actions: ['read'],
    });
    await put(app.admin, `${base}/glob/roles`, { id: 'team:ops', members: ['users:frank'] });
    const request = { subject: 'users:frank', resource: 'drive:a:b', action: 'read' };
    expect(await allowedStatus(app.admin, 'glob', request)).toBe(200);
    await app.close();

    const restarted = await bootApp({}, { databaseUrl });
    try {
      expect(await allowedStatus(restarted.admin, 'glob', request)).toBe(200);
      expect((await restarted.admin.get(`${base}/glob/policies/kept`)).body).toMatchObject({ id: 'kept', subjects: ['team:*'] });
      expect((await restarted.admin.get(`${base}/glob/roles/team:ops`)).body).toEqual({
        id: 'team:ops',
        description: '',
        members: ['users:frank'],
      });
    } finally {
      await restarted.close();
    }
  });
});
