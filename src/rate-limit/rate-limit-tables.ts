import type { RateLimitEnvironment, RateLimitPlan } from '../config/app-config.js';

/** A bucket's limits: requests per 1 s window (burst) and per 60 s window (sustained). */
export interface BucketLimits {
  readonly bucket: string;
  readonly burstRps: number;
  readonly sustainedRpm: number;
}

type Row = readonly [bucket: string, burstRps: number, sustainedRpm: number];

const rows = (table: readonly Row[]): readonly BucketLimits[] =>
  table.map(([bucket, burstRps, sustainedRpm]) => ({ bucket, burstRps, sustainedRpm }));

/** The Developer plan: the same values in every environment. */
const DEVELOPER = rows([
  ['/sessions/whoami', 10, 300],
  ['/admin/oauth2/introspect', 10, 300],
  ['/relation-tuples/check', 10, 300],
  ['GET /admin/identities', 1, 10],
  ['POST /admin/identities', 1, 10],
  ['PATCH /admin/identities', 1, 10],
  ['POST /admin/recovery/*', 1, 10],
  ['POST /self-service/registration', 1, 10],
  ['POST /self-service/recovery', 1, 10],
  ['POST /self-service/settings', 1, 10],
  ['POST /self-service/verification', 1, 10],
  ['/scim/**', 1, 10],
  ['*', 5, 150],
]);

const PRODUCTION_ENVIRONMENT: Readonly<Record<'production' | 'growth' | 'enterprise', readonly BucketLimits[]>> = {
  production: rows([
    ['/sessions/whoami', 80, 1800],
    ['/admin/oauth2/introspect', 80, 1800],
    ['/relation-tuples/check', 80, 1800],
    ['GET /admin/identities', 10, 300],
    ['POST /admin/recovery/*', 10, 30],
    ['/scim/**', 10, 300],
    ['*', 40, 900],
  ]),
  growth: rows([
    ['/sessions/whoami', 800, 18000],
    ['/admin/oauth2/introspect', 800, 18000],
    ['/relation-tuples/check', 800, 18000],
    ['GET /admin/identities', 20, 600],
    ['POST /admin/recovery/*', 10, 300],
    ['/scim/**', 10, 300],
    ['*', 400, 9000],
  ]),
  // The hosted offer's text says Enterprise defaults to the Growth limits while its table lists these;
  // the table is what is configured.
  enterprise: rows([
    ['/sessions/whoami', 1200, 36000],
    ['/admin/oauth2/introspect', 1200, 36000],
    ['/relation-tuples/check', 1200, 36000],
    ['GET /admin/identities', 60, 1200],
    ['POST /admin/recovery/*', 20, 600],
    ['/scim/**', 20, 600],
    ['*', 800, 18000],
  ]),
};

/** Staging and Development projects of the Production, Growth and Enterprise plans. */
const NON_PRODUCTION_ENVIRONMENT = rows([
  ['/sessions/whoami', 10, 30],
  ['/admin/oauth2/introspect', 10, 300],
  ['/relation-tuples/check', 10, 300],
  ['GET /admin/identities', 1, 10],
  ['/scim/**', 1, 10],
  ['*', 5, 150],
]);

/** The limits of a plan in an environment, as the hosted offer publishes them. */
export function planLimits(plan: Exclude<RateLimitPlan, 'off'>, environment: RateLimitEnvironment): readonly BucketLimits[] {
  if (plan === 'developer') return DEVELOPER;
  if (environment !== 'production') return NON_PRODUCTION_ENVIRONMENT;
  return PRODUCTION_ENVIRONMENT[plan];
}

/** What a trusted address gets: the limits of the next plan up (Enterprise has none above it). */
export function nextPlanUp(plan: Exclude<RateLimitPlan, 'off'>): Exclude<RateLimitPlan, 'off'> {
  switch (plan) {
    case 'developer':
      return 'production';
    case 'production':
      return 'growth';
    case 'growth':
    case 'enterprise':
      return 'enterprise';
  }
}
