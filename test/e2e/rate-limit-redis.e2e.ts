import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { freshDatabase } from '../support/database.js';
import type { HttpResponse } from '../support/http.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

/** Whether a Redis answers at REDIS_URL (CI starts Debian's redis-server when none does). */
async function redisAnswers(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const available = await redisAnswers();
if (!available) console.log(`rate-limit Redis tests skipped: no Redis answers at ${REDIS_URL}`);

/** A port nothing listens on: bound, read, released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const refused = (responses: readonly HttpResponse[]): number => responses.filter((response) => response.status === 429).length;

describe.runIf(available)('two instances sharing Redis', () => {
  const project = `e2e-${randomBytes(6).toString('hex')}`;
  let first: TestApp;
  let second: TestApp;
  let redis: Redis;
  beforeAll(async () => {
    const databaseUrl = await freshDatabase();
    const env = { RATE_LIMIT_PLAN: 'developer', RATE_LIMIT_PROJECT: project, REDIS_URL };
    first = await bootApp(env, { databaseUrl });
    second = await bootApp(env, { databaseUrl });
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    if (redis !== undefined) {
      const keys = await redis.keys(`*${project}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
  });

  it('share one counter: the catch-all’s 5 per second hold across both', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) => (index % 2 === 0 ? first : second).public.get('/.well-known/openid-configuration')),
    );
    expect(refused(answers)).toBe(1);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
  });

  it('share inflight keys: a key held in Redis (by another instance’s request) refuses the write, and expires', async () => {
    const created = await first.admin.post<{ id: string }>('/identities', { json: { traits: { email: 'shared-inflight@example.com' } } });
    expect(created.status).toBe(201);
    const key = `latchkey:inflight:${project}:/admin/identities/${created.body.id}`;
    await redis.set(key, 'held-by-another-instance', 'PX', 1500);
    const body = { json: { schema_id: 'default', traits: { email: 'shared-inflight-2@example.com' } } };
    const blocked = await second.admin.put<{ error: { id: string } }>(`/identities/${created.body.id}`, body);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.id).toBe('too_many_requests');
    // The key was set with a lifetime: once it lapses (an instance that died mid-request) writes go through.
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect((await second.admin.put(`/identities/${created.body.id}`, body)).status).toBe(200);
    expect(await redis.exists(key)).toBe(0);
  });

  it('go on counting after Redis forgot the scripts (a restart, SCRIPT FLUSH): they are sent again', async () => {
    await redis.script('FLUSH');
    const answer = await first.public.get('/.well-known/openid-configuration');
    expect([200, 429]).toContain(answer.status);
    // Counted, not let through unchecked: only a counted request carries the RateLimit fields.
    expect(answer.headers.get('ratelimit')).toMatch(/^"burst";r=\d+;t=\d+, "sustained";r=\d+;t=\d+$/);
  });
});

describe('Redis unreachable', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ RATE_LIMIT_PLAN: 'developer', REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('fails open: requests are served unchecked (no 500, no wait), and counted in a metric', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => app.public.get('/.well-known/openid-configuration')));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 8 }, () => 200));
    expect(answers[0]!.headers.get('ratelimit-policy')).toBeNull();
    const metrics = (await app.anonymousAdmin.get('/metrics/prometheus')).text;
    expect(metrics).toMatch(/^rate_limit_storage_errors_total [1-9]/m);
  });
});
