// The benchmark scenarios run by bench/run.mjs. Each one is measured interleaved with the bare-Fastify
// ceiling of the same run; see docs/benchmarks.md.
//
// A scenario:
//   name      shown in the table, matched by BENCH_FILTER (substring, case-insensitive)
//   listener  'public' | 'admin' | 'proxy' (the service runs with PROXY_PORT set)
//   method    HTTP method; path: request path (or returned by setup)
//   headers   optional static headers; body: optional string or object (objects are sent as JSON)
//   setup     optional async (ctx) => ({ path?, headers?, body?, requests? }), run once before the load;
//             it may create fixtures through the admin API (or with SQL on ctx.databaseUrl). `requests`
//             is passed to autocannon as is (a sequence of varied requests). If setup throws (e.g. the
//             endpoint does not exist yet), the scenario is reported as skipped with the reason.
//   env       optional settings added to the service's environment (one service serves the whole run,
//             so they apply to every scenario; keep them compatible)
//   target    optional minimum ratio of the scenario's median req/s to bare Fastify's median req/s
//   variant   optional { name, env, baselineName? }: measure the scenario on a second service started with
//             `env` added to the main one's (same database and secrets) against the main service, round
//             by round; the figure is variant ÷ main, and `target` applies to it (e.g. rate limits on vs off)
//   peer      optional { name, script, env?(urls, probe), request(env, request), target? }: another server,
//             started after the probe and measured in the same rounds, shown as `÷ peer` (target: the
//             least `÷ peer`); bench/peers.mjs has the one that sends the service's own answer
//   warmup    optional seconds of unmeasured load before the first round (besides BENCH_WARMUP before
//             every run): for scenarios whose code paths V8 needs longer to compile than one second
//
// A flow scenario's setup returns { flow } instead: an async function that runs one complete
// multi-request flow and throws when a step fails. `concurrency` (default BENCH_CONNECTIONS) flows run
// at once; the figure is flows/s next to the bare ceiling's req/s, with no ratio. One flow is its probe.
//   baseline  optional, flow scenarios only: { name, setup } where setup(ctx) returns { flow }, the work
//             the scenario should cost about as much as (e.g. the raw password hash of a login). It is
//             measured in every round next to the scenario (same concurrency; order bare, baseline,
//             scenario, then reversed), and the scenario's figure is the median of the rounds'
//             scenario ÷ baseline ratios, with the overhead 1 − ratio; `target` then applies to that
//             ratio. Its own flows/s get a row of their own in the table.
//
// ctx (see makeContext in run.mjs):
//   ctx.urls.public / .admin / .proxy    base URLs of the three listeners
//   ctx.urls.bare                        bare Fastify's base URL (an upstream for proxy scenarios)
//   ctx.databaseUrl                      the service's PostgreSQL (the harness's embedded one, or DATABASE_URL)
//   ctx.adminToken, ctx.adminHeaders     the run's admin token, and { authorization: 'Bearer …' }
//   await ctx.admin(method, path, body?) admin API call with the token; returns the parsed JSON body,
//                                        throws "<METHOD> <path> answered <status> …" on a non-2xx
//   await ctx.request(listener, method, path, { headers?, body? }) → { status, headers, body, text }
//
// After setup, every scenario gets one probe request; a non-2xx answer skips it (a fast 404 is not a
// result), and more than 1% non-2xx during the load marks it ERRORS.

import { sameAnswerPeer } from './peers.mjs';
import { directorySyncScenarios } from './scenarios/directory-sync.mjs';
import { decisionScenarios } from './scenarios/decisions.mjs';
import { identityScenarios } from './scenarios/identities.mjs';
import { oauthScenarios } from './scenarios/oauth.mjs';
import { policyScenarios } from './scenarios/policies.mjs';
import { rateLimitScenarios } from './scenarios/rate-limit.mjs';
import { selfServiceScenarios } from './scenarios/self-service.mjs';
import { tupleScenarios } from './scenarios/tuples.mjs';
import { uiScenarios } from './scenarios/ui.mjs';

export const scenarios = [
  {
    name: 'GET /health/alive',
    listener: 'public',
    method: 'GET',
    path: '/health/alive',
    target: 0.8,
  },
  {
    // The same answer through Fastify (a query string skips the listeners' shortcut): the floor of
    // every route the service serves through Fastify, with the hooks every request passes.
    name: 'GET /health/alive?via=fastify (floor of a Fastify route)',
    listener: 'public',
    method: 'GET',
    path: '/health/alive?via=fastify',
  },
  {
    name: 'GET /health/ready',
    listener: 'public',
    method: 'GET',
    path: '/health/ready',
  },
  {
    name: 'GET /.well-known/jwks.json',
    listener: 'public',
    method: 'GET',
    path: '/.well-known/jwks.json',
    target: 0.6,
    peer: sameAnswerPeer,
  },
  {
    name: 'GET /clients/{id}',
    listener: 'admin',
    method: 'GET',
    setup: async (ctx) => {
      const client = await ctx.admin('POST', '/clients', {
        client_name: 'bench',
        grant_types: ['client_credentials'],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      });
      if (typeof client?.client_id !== 'string') throw new Error('POST /clients returned no client_id');
      return { path: `/clients/${encodeURIComponent(client.client_id)}`, headers: ctx.adminHeaders };
    },
  },
  ...tupleScenarios,
  ...policyScenarios,
  ...identityScenarios,
  ...directorySyncScenarios,
  ...oauthScenarios,
  ...selfServiceScenarios,
  ...uiScenarios,
  ...rateLimitScenarios,
  ...decisionScenarios,
];
