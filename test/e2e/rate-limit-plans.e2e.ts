import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { freshDatabase } from '../support/database.js';
import type { HttpResponse } from '../support/http.js';

/**
 * The hosted offer's published limits, written out here independently of src/rate-limit: each
 * plan × environment is booted and its buckets must announce (RateLimit-Policy) and enforce these
 * numbers, so a wrong value in the service's tables fails.
 */
type Limits = readonly [burstRps: number, sustainedRpm: number];
interface Table {
  readonly whoami: Limits;
  readonly listIdentities: Limits;
  /** `POST /admin/recovery/*`; `undefined` where the table has no such row and the catch-all applies. */
  readonly recoveryLink: Limits | undefined;
  readonly catchAll: Limits;
}

const DEVELOPER: Table = { whoami: [10, 300], listIdentities: [1, 10], recoveryLink: [1, 10], catchAll: [5, 150] };
const PRODUCTION: Table = { whoami: [80, 1800], listIdentities: [10, 300], recoveryLink: [10, 30], catchAll: [40, 900] };
const GROWTH: Table = { whoami: [800, 18000], listIdentities: [20, 600], recoveryLink: [10, 300], catchAll: [400, 9000] };
const ENTERPRISE: Table = { whoami: [1200, 36000], listIdentities: [60, 1200], recoveryLink: [20, 600], catchAll: [800, 18000] };
const STAGING_AND_DEVELOPMENT: Table = { whoami: [10, 30], listIdentities: [1, 10], recoveryLink: undefined, catchAll: [5, 150] };

const CASES: ReadonlyArray<readonly [plan: string, environment: string, table: Table]> = [
  ['developer', 'production', DEVELOPER],
  ['developer', 'staging', DEVELOPER],
  ['developer', 'development', DEVELOPER],
  ['production', 'production', PRODUCTION],
  ['essential', 'production', PRODUCTION],
  ['growth', 'production', GROWTH],
  ['scale', 'production', GROWTH],
  ['enterprise', 'production', ENTERPRISE],
  ...(['production', 'essential', 'growth', 'scale', 'enterprise'] as const).flatMap((plan) =>
    (['staging', 'development'] as const).map((environment) => [plan, environment, STAGING_AND_DEVELOPMENT] as const),
  ),
];

const policy = ([burst, sustained]: Limits): string => `"burst";q=${burst};w=1, "sustained";q=${sustained};w=60`;
const UNKNOWN_IDENTITY = '00000000-0000-4000-8000-000000000000';
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Probe {
  readonly limits: Limits;
  /** Counted against the catch-all although its path is not `*`'s probe: left out of the enforcement checks. */
  readonly sharesCatchAll?: boolean;
  send(app: TestApp): Promise<HttpResponse>;
}

function probes(table: Table): Probe[] {
  return [
    { limits: table.whoami, send: (app) => app.public.get('/sessions/whoami') },
    { limits: table.listIdentities, send: (app) => app.admin.get('/identities') },
    {
      limits: table.recoveryLink ?? table.catchAll,
      sharesCatchAll: table.recoveryLink === undefined,
      send: (app) => app.admin.post('/admin/recovery/link', { json: { identity_id: UNKNOWN_IDENTITY } }),
    },
    { limits: table.catchAll, send: (app) => app.public.get('/.well-known/openid-configuration') },
  ];
}

/** Sends `count` requests at once and returns how many were refused with 429. */
async function refusedOf(count: number, send: () => Promise<HttpResponse>): Promise<number> {
  const answers = await Promise.all(Array.from({ length: count }, send));
  return answers.filter((answer) => answer.status === 429).length;
}

let databaseUrl: string;
beforeAll(async () => {
  databaseUrl = await freshDatabase();
});

describe.each(CASES)('RATE_LIMIT_PLAN=%s, RATE_LIMIT_ENVIRONMENT=%s', (plan, environment, table) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ RATE_LIMIT_PLAN: plan, RATE_LIMIT_ENVIRONMENT: environment }, { databaseUrl });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('announces each bucket’s burst and sustained limits of the table', async () => {
    for (const probe of probes(table)) {
      const answer = await probe.send(app);
      expect(answer.status).not.toBe(429);
      expect(answer.headers.get('ratelimit-policy')).toBe(policy(probe.limits));
    }
  });

  it('refuses the request past a burst limit of the table within one second (buckets of at most 10 per second)', async () => {
    // The probes above spent one request of each bucket; the windows start again after a second.
    await sleep(1100);
    const small = probes(table).filter((probe) => probe.limits[0] <= 10 && probe.sharesCatchAll !== true);
    const results = await Promise.all(small.map((probe) => refusedOf(probe.limits[0] + 1, () => probe.send(app))));
    expect(results).toEqual(small.map(() => 1));
  });

  // Only tables with a sustained limit reachable within a few seconds (overrides test the others' mechanics).
  const sustainedProbe = probes(table).find(
    (candidate) => candidate.sharesCatchAll !== true && candidate.limits[1] <= 30 && candidate.limits[1] / candidate.limits[0] <= 3,
  );
  it.skipIf(sustainedProbe === undefined)(
    'refuses the request past a sustained limit of the table, with a Retry-After beyond the second',
    async () => {
      const probe = sustainedProbe!;
      const [burst, sustained] = probe.limits;
      await sleep(1100);
      // Requests of the previous tests count in this minute too.
      let sent = 0;
      for (;;) {
        const answers = await Promise.all(Array.from({ length: burst }, () => probe.send(app)));
        sent += burst;
        const limited = answers.find((answer) => answer.status === 429);
        if (limited !== undefined) {
          expect(sent).toBeGreaterThan(sustained - 2 * burst);
          expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(1);
          expect(limited.headers.get('ratelimit')).toMatch(/"sustained";r=0;t=\d+$/);
          return;
        }
        expect(sent).toBeLessThanOrEqual(sustained);
        await sleep(1100);
      }
    },
  );
});
