import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { freshDatabase, queryDatabase } from '../support/database.js';
import type { HttpResponse } from '../support/http.js';
import { RouteCatalog } from '../../src/common/http/route-catalog.js';
import { INFLIGHT_RULES, inflightMayApply, inflightRuleFor } from '../../src/rate-limit/inflight-rules.js';
import { requestPathOf } from '../../src/rate-limit/request-path.js';

/** Fires `count` requests at once, each on its own connection, and returns their answers. */
function atOnce(count: number, send: (index: number) => Promise<HttpResponse>): Promise<HttpResponse[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => send(index)));
}

const statuses = (responses: readonly HttpResponse[]): number[] => responses.map((response) => response.status);
const refused = (responses: readonly HttpResponse[]): HttpResponse[] => responses.filter((response) => response.status === 429);

interface OAuthShape {
  error: string;
  status_code: number;
  details?: { bucket?: string; reason?: string };
}
interface IdentityShape {
  error: { id: string; code: number; details?: { bucket?: string } };
}
interface AccessShape {
  id: string;
  code: number;
  details: { bucket?: string }[];
}

function expectRetryAfter(response: HttpResponse, max: number): void {
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(max);
}

let databaseUrl: string;
beforeAll(async () => {
  databaseUrl = await freshDatabase();
});

describe('project limits (developer plan, production environment)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ RATE_LIMIT_PLAN: 'developer' }, { databaseUrl });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('the catch-all: 5 per second, then 429 in the shape of each path’s family, with Retry-After and the RateLimit fields', async () => {
    const spent = await atOnce(5, () => app.public.get('/.well-known/openid-configuration'));
    expect(statuses(spent)).toEqual([200, 200, 200, 200, 200]);
    expect(spent[0]!.headers.get('ratelimit-policy')).toBe('"burst";q=5;w=1, "sustained";q=150;w=60');
    expect(spent[0]!.headers.get('ratelimit')).toMatch(/^"burst";r=\d;t=1, "sustained";r=\d{3};t=\d+$/);

    const [oauth, identity, access] = await Promise.all([
      app.admin.get<OAuthShape>('/clients'),
      app.public.get<IdentityShape>('/schemas/default'),
      app.admin.get<AccessShape>('/relation-tuples?namespace=files'),
    ]);
    expect(oauth.status).toBe(429);
    expect(oauth.body.error).toBe('too_many_requests');
    expect(oauth.body.status_code).toBe(429);
    expect(oauth.body.details?.bucket).toBe('*');
    expectRetryAfter(oauth, 1);
    expect(oauth.headers.get('ratelimit-policy')).toBe('"burst";q=5;w=1, "sustained";q=150;w=60');
    expect(oauth.headers.get('ratelimit')).toMatch(/^"burst";r=0;t=1, /);

    expect(identity.status).toBe(429);
    expect(identity.body.error.id).toBe('too_many_requests');
    expect(identity.body.error.code).toBe(429);
    expectRetryAfter(identity, 1);

    expect(access.status).toBe(429);
    expect(access.body.id).toBe('too_many_requests');
    expect(access.body.code).toBe(429);
    expect(access.body.details[0]?.bucket).toBe('*');
    expectRetryAfter(access, 1);

    // The burst window is one second: after Retry-After the bucket answers again.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await app.public.get('/.well-known/openid-configuration')).status).toBe(200);
  });

  it('the most specific bucket wins, and /identities on the admin listener counts as /admin/identities', async () => {
    const first = await app.admin.get('/identities');
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"burst";q=1;w=1, "sustained";q=10;w=60');
    const prefixed = await app.admin.get<IdentityShape>('/admin/identities');
    expect(prefixed.status).toBe(429);
    expect(prefixed.body.error.details?.bucket).toBe('GET /admin/identities');
    // HEAD runs the GET route's handler, so it spends the GET bucket too.
    const head = await app.admin.request('HEAD', '/identities');
    expect(head.status).toBe(429);
    expect(head.headers.get('ratelimit-policy')).toBe('"burst";q=1;w=1, "sustained";q=10;w=60');
    // Another bucket (the catch-all for GET /admin/identities/{id}) is not spent by it.
    const one = await app.admin.get('/identities/00000000-0000-4000-8000-000000000000');
    expect(one.status).toBe(404);
    expect(one.headers.get('ratelimit-policy')).toBe('"burst";q=5;w=1, "sustained";q=150;w=60');
    // The public listener cannot spend the admin API's buckets: there /admin/identities is an unknown path.
    const publicSide = await app.public.get('/admin/identities');
    expect(publicSide.status).toBe(404);
    expect(publicSide.headers.get('ratelimit-policy')).toBe('"burst";q=5;w=1, "sustained";q=150;w=60');
  });

  it('nothing behind a refused request runs: the second POST /admin/identities within a second writes no identity', async () => {
    const answers = await atOnce(3, (index) =>
      app.admin.post('/identities', { json: { traits: { email: `limited-${index}@example.com` } } }),
    );
    expect(statuses(answers).sort()).toEqual([201, 429, 429]);
    const rows = await queryDatabase<{ count: string }>(
      app.databaseUrl,
      `SELECT count(*) FROM identities WHERE traits->>'email' LIKE 'limited-%'`,
    );
    expect(Number(rows[0]!.count)).toBe(1);
  });

  it('POST /admin/recovery/* and POST /self-service/registration are buckets of one request per second', async () => {
    const recovery = await atOnce(2, () =>
      app.admin.post('/admin/recovery/link', { json: { identity_id: '00000000-0000-4000-8000-000000000000' } }),
    );
    expect(statuses(recovery).sort()).toEqual([404, 429]);
    const limited = refused(recovery)[0] as HttpResponse<IdentityShape>;
    expect(limited.body.error.details?.bucket).toBe('POST /admin/recovery/*');
    const registration = await atOnce(2, () =>
      app.public.post('/self-service/registration?flow=00000000-0000-4000-8000-000000000000', { json: {} }),
    );
    expect(refused(registration)).toHaveLength(1);
  });

  it('percent-escapes do not dodge a bucket', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const answers = await atOnce(2, (index) => app.admin.get(index === 0 ? '/identities' : '/%69dentities'));
    expect(refused(answers)).toHaveLength(1);
  });

  it('health, metrics and the decision API are not limited', async () => {
    const health = await atOnce(12, (index) => (index % 2 === 0 ? app.public : app.admin).get('/health/ready'));
    expect(statuses(health).every((status) => status === 200)).toBe(true);
    expect(health[0]!.headers.get('ratelimit-policy')).toBeNull();
    const metrics = await atOnce(8, () => app.anonymousAdmin.get('/metrics/prometheus'));
    expect(statuses(metrics).every((status) => status === 200)).toBe(true);
    const decisions = await atOnce(8, () => app.anonymousAdmin.get('/decisions/anything'));
    expect(refused(decisions)).toHaveLength(0);
  });

  it('counts refusals per bucket in a metric', async () => {
    const text = (await app.anonymousAdmin.get('/metrics/prometheus')).text;
    expect(text).toMatch(/rate_limit_limited_requests_total\{bucket="GET \/admin\/identities"\} [1-9]/);
    expect(text).toMatch(/rate_limit_limited_requests_total\{bucket="\*"\} [1-9]/);
  });
});

const OPENID_CONFIGURATION = '/.well-known/openid-configuration';

describe('overrides (RATE_LIMIT_OVERRIDES)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp(
      {
        RATE_LIMIT_PLAN: 'developer',
        RATE_LIMIT_OVERRIDES: JSON.stringify([
          { bucket: '/sessions/whoami', burst_rps: 100, sustained_rpm: 3 },
          { bucket: 'GET /version', burst_rps: 2, sustained_rpm: 100 },
        ]),
      },
      { databaseUrl },
    );
  });
  afterAll(async () => {
    await app?.close();
  });

  it('replace a bucket’s limits: the sustained window refuses the fourth request, with a Retry-After of the minute', async () => {
    const answers = await atOnce(4, () => app.public.get('/sessions/whoami'));
    expect(statuses(answers).sort()).toEqual([401, 401, 401, 429]);
    expect(answers[0]!.headers.get('ratelimit-policy')).toBe('"burst";q=100;w=1, "sustained";q=3;w=60');
    const limited = refused(answers)[0] as HttpResponse<IdentityShape>;
    expect(limited.body.error.details?.bucket).toBe('/sessions/whoami');
    expectRetryAfter(limited, 60);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(1);
  });

  it('add a bucket, more specific than the catch-all', async () => {
    const answers = await atOnce(3, () => app.admin.get('/version'));
    expect(statuses(answers).sort()).toEqual([200, 200, 429]);
    expect((refused(answers)[0] as HttpResponse<OAuthShape>).body.details?.bucket).toBe('GET /version');
    expect(answers[0]!.headers.get('ratelimit-policy')).toBe('"burst";q=2;w=1, "sustained";q=100;w=60');
  });
});

describe('trusted addresses (RATE_LIMIT_TRUSTED_IPS) get the next plan up, counted apart', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp(
      { RATE_LIMIT_PLAN: 'developer', TRUST_PROXY: 'true', RATE_LIMIT_TRUSTED_IPS: '10.0.0.0/8, 2001:db8::/32' },
      { databaseUrl },
    );
  });
  afterAll(async () => {
    await app?.close();
  });

  const from = (address: string) => () => app.public.get(OPENID_CONFIGURATION, { headers: { 'x-forwarded-for': address } });

  it('an untrusted address spends the developer catch-all; a trusted one still has the production plan’s', async () => {
    const untrusted = await atOnce(6, from('192.0.2.1'));
    expect(refused(untrusted)).toHaveLength(1);
    expect(untrusted[0]!.headers.get('ratelimit-policy')).toBe('"burst";q=5;w=1, "sustained";q=150;w=60');
    const trusted = await atOnce(6, from('10.1.2.3'));
    expect(refused(trusted)).toHaveLength(0);
    expect(trusted[0]!.headers.get('ratelimit-policy')).toBe('"burst";q=40;w=1, "sustained";q=900;w=60');
    const trustedV6 = await from('2001:db8::7')();
    expect(trustedV6.headers.get('ratelimit-policy')).toBe('"burst";q=40;w=1, "sustained";q=900;w=60');
  });
});

describe('a forwarded address is believed only behind a trusted proxy', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ RATE_LIMIT_PLAN: 'developer', RATE_LIMIT_TRUSTED_IPS: '10.0.0.0/8' }, { databaseUrl });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('X-Forwarded-For from a direct client does not make it trusted', async () => {
    const answer = await app.public.get(OPENID_CONFIGURATION, { headers: { 'x-forwarded-for': '10.1.2.3' } });
    expect(answer.headers.get('ratelimit-policy')).toBe('"burst";q=5;w=1, "sustained";q=150;w=60');
  });
});

/** The value of one series of a counter in the Prometheus text, 0 when absent. */
async function counterValue(app: TestApp, series: string): Promise<number> {
  const text = (await app.anonymousAdmin.get('/metrics/prometheus')).text;
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('inflight rules (plan off: they apply whatever the plan)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({}, { databaseUrl });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('enforced: concurrent PUT /admin/identities/{id} → one writer proceeds at a time, the others get 429 and change nothing', async () => {
    const created = await app.admin.post<{ id: string }>('/identities', { json: { traits: { email: 'inflight@example.com' } } });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const accepted = new Set<string>();
    let limited: HttpResponse<IdentityShape> | undefined;
    // Overlap depends on scheduling: batches until one request met another in flight.
    for (let batch = 0; batch < 5 && limited === undefined; batch += 1) {
      const answers = await atOnce(20, (index) =>
        app.admin.put(index % 2 === 0 ? `/identities/${id}` : `/admin/identities/${id}`, {
          json: { schema_id: 'default', traits: { email: `inflight-${batch}-${index}@example.com` } },
        }),
      );
      expect(statuses(answers).every((status) => status === 200 || status === 429)).toBe(true);
      answers.forEach((answer, index) => answer.status === 200 && accepted.add(`inflight-${batch}-${index}@example.com`));
      limited = refused(answers)[0] as HttpResponse<IdentityShape> | undefined;
    }
    expect(limited).toBeDefined();
    expect(limited!.body.error.id).toBe('too_many_requests');
    expect(limited!.body.error.code).toBe(429);
    expectRetryAfter(limited!, 1);
    const final = await app.admin.get<{ traits: { email: string } }>(`/identities/${id}`);
    expect(accepted.has(final.body.traits.email)).toBe(true);
    expect(await counterValue(app, 'rate_limit_inflight_violations_total{rule="/admin/identities/*",action="enforced"}')).toBeGreaterThan(
      0,
    );
  });

  it('GET, OPTIONS and HEAD are exempt: concurrent reads of one identity all answer', async () => {
    const created = await app.admin.post<{ id: string }>('/identities', { json: { traits: { email: 'reader@example.com' } } });
    const reads = await atOnce(20, (index) => app.admin.request(index % 2 === 0 ? 'GET' : 'HEAD', `/identities/${created.body.id}`));
    expect(statuses(reads).every((status) => status === 200)).toBe(true);
    const options = await atOnce(10, () => app.admin.request('OPTIONS', `/identities/${created.body.id}`));
    expect(refused(options)).toHaveLength(0);
  });

  it('every route a rule can reach carries the inflight hooks: the route filter errs towards holding over the whole catalogue', () => {
    const reached = new Set<string>();
    for (const route of app.running.app.get(RouteCatalog).routes()) {
      for (const listener of route.listeners) {
        for (const path of pathsServedBy(route.url)) {
          const requestPath = requestPathOf(listener, path);
          if (requestPath === undefined || inflightRuleFor(route.method, requestPath) === undefined) continue;
          reached.add(`${listener} ${route.method} ${route.url}`);
          expect(inflightMayApply([route.method], route.url, route.listeners), `${route.method} ${route.url} on ${listener}`).toBe(true);
        }
      }
    }
    // The walk found the routes the rules name that this service serves (the session and credential
    // rules name admin routes it does not have), so the check above ran on each of them.
    expect([...reached].sort()).toEqual([
      'admin DELETE /identities/:id',
      'admin POST /identities',
      'admin PUT /identities/:id',
      'public POST /self-service/recovery',
    ]);
  });

  it('report-only: concurrent recovery submissions for one address are all served, and counted', async () => {
    const series = 'rate_limit_inflight_violations_total{rule="/self-service/recovery",action="report-only"}';
    const flow = await app.public.get<{ id: string }>('/self-service/recovery/api');
    expect(flow.status).toBe(200);
    for (let batch = 0; batch < 5 && (await counterValue(app, series)) === 0; batch += 1) {
      const answers = await atOnce(10, () =>
        app.public.post(`/self-service/recovery?flow=${flow.body.id}`, { json: { method: 'link', email: 'Someone@Example.com' } }),
      );
      expect(refused(answers)).toHaveLength(0);
      expect(statuses(answers).every((status) => status === 200)).toBe(true);
    }
    expect(await counterValue(app, series)).toBeGreaterThan(0);
  });
});

describe('RATE_LIMIT_INFLIGHT=report-only', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ RATE_LIMIT_INFLIGHT: 'report-only' }, { databaseUrl });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lets concurrent creates through and counts what the enforced rule would have refused', async () => {
    const series = 'rate_limit_inflight_violations_total{rule="/admin/identities",action="report-only"}';
    for (let batch = 0; batch < 5 && (await counterValue(app, series)) === 0; batch += 1) {
      const answers = await atOnce(10, (index) =>
        app.admin.post('/identities', { json: { traits: { email: `report-only-${batch}-${index}@example.com` } } }),
      );
      expect(statuses(answers)).toEqual(answers.map(() => 201));
    }
    expect(await counterValue(app, series)).toBeGreaterThan(0);
    expect(await counterValue(app, 'rate_limit_inflight_violations_total{rule="/admin/identities",action="enforced"}')).toBe(0);
  });
});

/**
 * Request paths a route template serves that a rule could name: the template with every parameter and
 * wildcard filled with one segment, and each rule's path (with and without the admin listener's
 * `/admin` prefix, a rule's `*` filled the same way) that the template matches.
 */
function pathsServedBy(template: string): string[] {
  const filled = template.replace(/:[A-Za-z0-9_]+/g, 'x').replace(/\*/g, 'x');
  const pattern = new RegExp(
    `^${template
      .split(/(:[A-Za-z0-9_]+|\*)/)
      .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
      .join('')}$`,
  );
  const candidates = INFLIGHT_RULES.flatMap((rule) => {
    const path = rule.pattern.path.replace(/\*/g, 'x');
    return path.startsWith('/admin/') || path === '/admin' ? [path, path.slice('/admin'.length) || '/'] : [path];
  });
  return [filled, ...candidates.filter((candidate) => pattern.test(candidate))];
}
