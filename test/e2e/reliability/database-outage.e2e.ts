import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../../support/app.js';
import type { HttpClient, HttpResponse } from '../../support/http.js';
import { OwnPostgres, waitUntil } from '../../support/own-postgres.js';
import { ProbeModule } from '../../support/probe.module.js';

/** One real route per error family, each reading the database. */
const FAMILY_ROUTES = [
  { family: 'oauth', path: '/clients' },
  { family: 'identity', path: '/identities' },
  { family: 'access', path: '/relation-tuples?namespace=files' },
] as const;

/** The code and status of an error body, whichever family's shape it is in. */
function errorOf(family: string, response: HttpResponse): { code: unknown; status: unknown } {
  const body = response.body as Record<string, Record<string, unknown> | unknown>;
  switch (family) {
    case 'oauth':
      return { code: body['error'], status: body['status_code'] };
    case 'identity': {
      const error = body['error'] as Record<string, unknown>;
      return { code: error['id'], status: error['code'] };
    }
    default:
      return { code: body['id'], status: body['code'] };
  }
}

function expectUnavailable(family: string, response: HttpResponse): void {
  expect(response.status).toBe(503);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(errorOf(family, response)).toEqual({ code: 'service_unavailable', status: 503 });
}

async function metricValue(admin: HttpClient): Promise<number> {
  const text = (await admin.get('/metrics/prometheus')).text;
  return [...text.matchAll(/^database_unavailable_responses_total\{[^}]*\} (\d+)/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
}

/**
 * A database outage answers 503 with Retry-After in the owning family's shape, counted in a metric,
 * and the service recovers by itself when the database is back.
 */
describe('database outages', () => {
  let postgres: OwnPostgres;
  let app: TestApp;

  beforeAll(async () => {
    postgres = await OwnPostgres.start();
    app = await bootApp(
      {
        NAMESPACES: '[{"name": "files", "id": 1}]',
        DATABASE_POOL_SIZE: '2',
        DATABASE_CONNECT_TIMEOUT_MS: '2500',
        DATABASE_STATEMENT_TIMEOUT_MS: '5000',
      },
      { databaseUrl: postgres.url, extraModules: [ProbeModule] },
    );
  });

  afterAll(async () => {
    await app?.close();
    await postgres?.destroy();
  });

  it('answers a statement timeout with 503 in every family', async () => {
    const probes = [
      ['clients', 'oauth'],
      ['identities', 'identity'],
    ] as const;
    const responses = await Promise.all(probes.map(([prefix]) => app.admin.get(`/${prefix}/_probe/sleep?ms=8000`)));
    probes.forEach(([, family], index) => expectUnavailable(family, responses[index]!));
    expectUnavailable('access', await app.admin.get('/relation-tuples/_probe/sleep?ms=8000'));
  });

  it('answers a pool-acquire timeout with 503 in every family, and serves again once the pool frees', async () => {
    const holding = [app.admin.get('/clients/_probe/sleep?ms=4000'), app.admin.get('/clients/_probe/sleep?ms=4000')];
    await new Promise((resolve) => setTimeout(resolve, 200));
    const starved = await Promise.all(FAMILY_ROUTES.map(({ path }) => app.admin.get(path)));
    FAMILY_ROUTES.forEach(({ family }, index) => expectUnavailable(family, starved[index]!));
    expect((await Promise.all(holding)).map((response) => response.status)).toEqual([200, 200]);
    for (const { path } of FAMILY_ROUTES) expect((await app.admin.get(path)).status).toBe(200);
  });

  it('answers refused connections with 503 in every family, counts them, and recovers without a restart', async () => {
    const before = await metricValue(app.admin);
    await postgres.stop();
    for (const { family, path } of FAMILY_ROUTES) {
      // The first request may find a pooled connection the shutdown cut; both answers must be 503.
      expectUnavailable(family, await app.admin.get(path));
      expectUnavailable(family, await app.admin.get(path));
    }
    expect((await app.public.get('/health/ready')).status).toBe(503);
    expect(await metricValue(app.admin)).toBeGreaterThanOrEqual(before + FAMILY_ROUTES.length * 2);

    await postgres.restart();
    await waitUntil(async () => (await app.admin.get('/clients')).status === 200, 15_000);
    for (const { path } of FAMILY_ROUTES) expect((await app.admin.get(path)).status).toBe(200);
  });
});
