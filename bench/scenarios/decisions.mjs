// Decision pipeline scenarios (docs/decisions.md): the decision API on the admin listener with three
// pipelines of growing weight, and the reverse proxy forwarding to bare Fastify, whose direct figure
// is the ceiling every scenario is compared with (so the proxy's ratio is "proxy ÷ the same upstream
// called directly"). Rules are stored through the admin API (PUT /rules/{id}); the request Host is
// the listener's own address, which the rules' `<[^/]+>` host pattern accepts (capture group 0, so the
// path's groups start at 1).
import { Buffer } from 'node:buffer';
import { sameAnswerPeer } from '../peers.mjs';
import { seed as seedPolicies } from './policies.mjs';
import { tuplesServiceEnv } from './tuples.mjs';

const HOST = '<[^/]+>';

async function putRule(ctx, rule) {
  await ctx.admin('PUT', `/rules/${rule.id}`, {
    description: 'bench',
    match: { methods: ['GET'], url: rule.url },
    authenticators: rule.authenticators,
    authorizer: rule.authorizer,
    mutators: rule.mutators,
    upstream: rule.upstream ?? { url: '', preserve_host: false },
    id: rule.id,
  });
}

async function sessionToken(ctx, email) {
  const password = 'correct horse battery staple 42';
  await ctx.admin('POST', '/identities', { traits: { email }, credentials: { password: { config: { password } } } });
  const init = await ctx.request('public', 'GET', '/self-service/login/api');
  const login = await ctx.request('public', 'POST', `/self-service/login?flow=${init.body.id}`, {
    body: { method: 'password', password_identifier: email, password },
  });
  if (login.status !== 200) throw new Error(`API login answered ${login.status}`);
  return login.body.session_token;
}

async function accessToken(ctx) {
  const client = await ctx.admin('POST', '/clients', { grant_types: ['client_credentials'], response_types: [], scope: 'read' });
  const basic = Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64');
  const issued = await ctx.request('public', 'POST', '/oauth2/token', {
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&scope=read',
  });
  if (issued.status !== 200) throw new Error(`the token endpoint answered ${issued.status}`);
  return { clientId: client.client_id, token: issued.body.access_token };
}

export const decisionScenarios = [
  {
    name: 'decision noop → allow → noop',
    listener: 'admin',
    method: 'GET',
    path: '/decisions/bench/noop',
    target: 0.5,
    peer: sameAnswerPeer,
    setup: async (ctx) => {
      await putRule(ctx, {
        id: 'bench-noop',
        url: `http://${HOST}/bench/noop`,
        authenticators: [{ handler: 'noop' }],
        authorizer: { handler: 'allow' },
        mutators: [{ handler: 'noop' }],
      });
      return {};
    },
  },
  {
    name: 'decision cookie_session → keto_engine_acp_ory → header, 10k policies',
    listener: 'admin',
    method: 'GET',
    path: '/decisions/bench/acp/doc-123',
    target: 0.3,
    peer: sameAnswerPeer,
    setup: async (ctx) => {
      await seedPolicies(ctx, 'exact');
      const token = await sessionToken(ctx, 'bench-acp@example.com');
      await putRule(ctx, {
        id: 'bench-acp',
        url: `http://${HOST}/bench/acp/<[a-z0-9-]+>`,
        authenticators: [{ handler: 'cookie_session' }],
        // The seeded policies name users:u<n>; user 1234 may read tenant 123's doc-123 through its role.
        authorizer: {
          handler: 'keto_engine_acp_ory',
          config: {
            flavor: 'exact',
            subject: 'users:u1234',
            required_action: 'read',
            required_resource: 'tenants:t123:docs:{{ printIndex .MatchContext.RegexpCaptureGroups 1 }}',
          },
        },
        mutators: [{ handler: 'header', config: { headers: { 'X-User': '{{ print .Subject }}' } } }],
      });
      return { headers: { cookie: `service_session=${token}` } };
    },
  },
  {
    name: 'decision oauth2_introspection → relation_tuple → id_token',
    listener: 'admin',
    method: 'GET',
    path: '/decisions/bench/token/7',
    target: 0.25,
    env: tuplesServiceEnv,
    setup: async (ctx) => {
      const { clientId, token } = await accessToken(ctx);
      await ctx.admin('PUT', '/relation-tuples', { namespace: 'bench10k', object: 'decision-7', relation: 'view', subject: clientId });
      await putRule(ctx, {
        id: 'bench-token',
        url: `http://${HOST}/bench/token/<[0-9]+>`,
        // Oathkeeper's introspection cache, as deployments that judge every request with a token run it.
        authenticators: [{ handler: 'oauth2_introspection', config: { cache: { enabled: true, ttl: '30s' } } }],
        authorizer: {
          handler: 'relation_tuple',
          config: { namespace: 'bench10k', object: 'decision-{{ printIndex .MatchContext.RegexpCaptureGroups 1 }}', relation: 'view' },
        },
        mutators: [{ handler: 'id_token', config: { ttl: '15m' } }],
      });
      return { headers: { authorization: `Bearer ${token}` } };
    },
  },
  {
    name: 'proxy noop → allow → noop to bare Fastify (vs bare Fastify direct)',
    listener: 'proxy',
    method: 'GET',
    path: '/proxy-bench/',
    target: 0.5,
    // What the proxy library costs by itself on this box: the ceiling our proxy can approach.
    peer: {
      name: 'bare Fastify + @fastify/reply-from',
      script: 'bench/peer/reply-from.mjs',
      env: (urls) => ({ PEER_UPSTREAM: urls.bare }),
      request: () => ({ path: '/', method: 'GET', headers: {} }),
    },
    setup: async (ctx) => {
      await putRule(ctx, {
        id: 'bench-proxy',
        url: `http://${HOST}/proxy-bench/`,
        authenticators: [{ handler: 'noop' }],
        authorizer: { handler: 'allow' },
        mutators: [{ handler: 'noop' }],
        upstream: { url: ctx.urls.bare, strip_path: '/proxy-bench', preserve_host: false },
      });
      return {};
    },
  },
];
