// Rate-limit scenarios (docs/rate-limits.md): the two hottest routes with RATE_LIMIT_PLAN=enterprise
// and limits raised so that nothing is refused, on a second service (a variant), against the same
// requests on the main service, whose limits are off. The figure is the variant's req/s ÷ the main
// service's, per round: what the hook, the bucket lookup and the two counters cost, in this process
// (memory) and in Redis (two scripts per request, pipelined on one connection). The Redis variants need
// a Redis at BENCH_REDIS_URL (default redis://127.0.0.1:6379); without one their probe fails and they
// are reported as skipped.
import { randomBytes } from 'node:crypto';
import { oauthScenarios } from './oauth.mjs';
import { selfServiceScenarios } from './self-service.mjs';

const RAISED = JSON.stringify(
  ['/sessions/whoami', '*'].map((bucket) => ({ bucket, burst_rps: 1_000_000_000, sustained_rpm: 1_000_000_000 })),
);
const ENTERPRISE = {
  RATE_LIMIT_PLAN: 'enterprise',
  RATE_LIMIT_OVERRIDES: RAISED,
  RATE_LIMIT_PROJECT: `bench-${randomBytes(4).toString('hex')}`,
};

const variants = [
  { label: 'in memory', target: 0.9, variant: { name: 'enterprise, in memory', baselineName: 'limits off', env: ENTERPRISE } },
  {
    label: 'Redis',
    target: 0.6,
    variant: {
      name: 'enterprise, Redis',
      baselineName: 'limits off',
      env: { ...ENTERPRISE, REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379' },
    },
  },
];

const whoami = selfServiceScenarios.find((scenario) => scenario.path === '/sessions/whoami');
const token = oauthScenarios.find((scenario) => scenario.path === '/oauth2/token');

/** Both variants of a route share its fixtures (one identity, one client): the setup runs once. */
function once(setup) {
  let result;
  return (ctx) => (result ??= setup(ctx));
}

export const rateLimitScenarios = [whoami, token].flatMap((scenario) => {
  const setup = once(scenario.setup);
  return variants.map(({ label, target, variant }) => ({
    ...scenario,
    setup,
    name: `rate limit (enterprise, ${label}) vs off: ${scenario.method} ${scenario.path}`,
    target,
    variant,
  }));
});
