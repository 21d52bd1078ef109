// Access-control policy (ACP) `allowed` scenarios: per flavor, 10,000 policies and 1,000 roles, written
// with SQL (INSERT … SELECT generate_series) straight into the service's database (ctx.databaseUrl),
// or through the admin API when the harness gives no database URL. See docs/policies.md.
//
// Dataset (the same shape in each flavor, in that flavor's pattern syntax):
//   1,000 roles   roles:r<r>  members users:u<10r> … users:u<10r+9>            (10,000 users)
//   10,000 policies p<i>: subjects  roles:r<i % 1000> and a per-policy user pattern
//                         resources tenants:t<i % 2000>:docs:<anything>         (regex / glob)
//                                   tenants:t<i % 2000>:docs:doc-<i>            (exact)
//                         actions   read, write, list (one alternation in regex and glob)
//                         every tenth policy is a deny on tenants:t…:docs:secret-… instead
// A request for users:u<n> on a document of tenant t<(n/10) % 2000>… is allowed through the user's
// role; the index walk finds the five policies of that tenant (of ten thousand) and evaluates those.
//
// "fixed" repeats one request (the target scenario); "varied" sends 1,000 different allowed
// requests in turn (autocannon's setupRequest, which costs the load generator some CPU).
import pg from 'pg';
import { peerStackName } from '../peers.mjs';

const POLICIES = 10_000;
const ROLES = 1_000;
const TENANTS = 2_000;
const BASE = '/engines/acp/service';

const PATTERNS = {
  regex: {
    user: (i) => `users:<u${i}-[0-9]+>`,
    resource: (tenant) => `tenants:t${tenant}:docs:<[a-z0-9-]+>`,
    secret: (tenant) => `tenants:t${tenant}:docs:secret-<[0-9]+>`,
    actions: ['<read|write|list>'],
  },
  glob: {
    user: (i) => `users:u${i}-*`,
    resource: (tenant) => `tenants:t${tenant}:docs:*`,
    secret: (tenant) => `tenants:t${tenant}:docs:secret-*`,
    actions: ['{read,write,list}'],
  },
  exact: {
    user: (i) => `users:u${i}`,
    resource: (tenant, i) => `tenants:t${tenant}:docs:doc-${i}`,
    secret: (tenant, i) => `tenants:t${tenant}:docs:secret-${i}`,
    actions: ['read', 'write', 'list'],
  },
};

function policy(flavor, i) {
  const p = PATTERNS[flavor];
  const tenant = i % TENANTS;
  const deny = i % 10 === 0;
  return {
    id: `p${i}`,
    description: 'bench',
    effect: deny ? 'deny' : 'allow',
    subjects: [`roles:r${i % ROLES}`, p.user(i)],
    resources: [deny ? p.secret(tenant, i) : p.resource(tenant, i)],
    actions: p.actions,
  };
}

function role(r) {
  return { id: `roles:r${r}`, description: 'bench', members: Array.from({ length: 10 }, (_, k) => `users:u${r * 10 + k}`) };
}

/**
 * An allowed request for user n. Its role r = n / 10 (< 1000) is a subject of policy r (tenant t<r>),
 * which allows unless r is a multiple of ten (then all of the role's policies are denies): callers
 * pick users whose role is not.
 */
function allowedInput(flavor, user) {
  const r = Math.floor(user / 10);
  const resource = flavor === 'exact' ? `tenants:t${r}:docs:doc-${r}` : `tenants:t${r}:docs:report-${user}`;
  return JSON.stringify({ subject: `users:u${user}`, resource, action: 'read', context: { remoteIpAddress: '10.0.0.1' } });
}

const seeded = new Map();

export function seed(ctx, flavor) {
  if (!seeded.has(flavor)) seeded.set(flavor, ctx.databaseUrl === undefined ? seedThroughApi(ctx, flavor) : seedWithSql(ctx, flavor));
  return seeded.get(flavor);
}

async function seedWithSql(ctx, flavor) {
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    const existing = await client.query('SELECT count(*)::int AS n FROM acp_policies WHERE flavor = $1', [flavor]);
    if (existing.rows[0].n >= POLICIES) return;
    const started = Date.now();
    for (let from = 0; from < POLICIES; from += 1_000) {
      const rows = Array.from({ length: 1_000 }, (_, k) => policy(flavor, from + k));
      const values = rows.map(
        (_, k) => `($1, $${k * 6 + 2}, $${k * 6 + 3}, $${k * 6 + 4}, $${k * 6 + 5}, $${k * 6 + 6}, $${k * 6 + 7}, '{}')`,
      );
      await client.query(
        `INSERT INTO acp_policies (flavor, id, description, effect, subjects, resources, actions, conditions) VALUES ${values.join(', ')} ON CONFLICT DO NOTHING`,
        [flavor, ...rows.flatMap((row) => [row.id, row.description, row.effect, row.subjects, row.resources, row.actions])],
      );
    }
    const roles = Array.from({ length: ROLES }, (_, r) => role(r));
    const values = roles.map((_, k) => `($1, $${k * 3 + 2}, $${k * 3 + 3}, $${k * 3 + 4})`);
    await client.query(`INSERT INTO acp_roles (flavor, id, description, members) VALUES ${values.join(', ')} ON CONFLICT DO NOTHING`, [
      flavor,
      ...roles.flatMap((row) => [row.id, row.description, row.members]),
    ]);
    await client.query('VACUUM ANALYZE acp_policies, acp_roles');
    // Rows written behind the service's back: tell it to rebuild its indexes (ChangeNotifier's channel,
    // key "*" = everything), as it does after a lost notification connection.
    await client.query(`SELECT pg_notify('latchkey_changes', $1)`, [JSON.stringify({ topic: 'acp', key: '*', from: 'bench' })]);
    console.log(
      `  seeded ${POLICIES.toLocaleString('en-US')} ${flavor} policies and ${ROLES.toLocaleString('en-US')} roles with SQL in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await client.end();
  }
}

async function seedThroughApi(ctx, flavor) {
  const started = Date.now();
  const jobs = [
    ...Array.from({ length: POLICIES }, (_, i) => () => ctx.admin('PUT', `${BASE}/${flavor}/policies`, policy(flavor, i))),
    ...Array.from({ length: ROLES }, (_, r) => () => ctx.admin('PUT', `${BASE}/${flavor}/roles`, role(r))),
  ];
  const workers = Array.from({ length: 16 }, async () => {
    while (jobs.length > 0) await jobs.shift()();
  });
  await Promise.all(workers);
  console.log(
    `  wrote ${POLICIES.toLocaleString('en-US')} ${flavor} policies and ${ROLES.toLocaleString('en-US')} roles through the API in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

function scenario(flavor, varied) {
  return {
    name: `allowed ${flavor}, 10k policies + 1k roles, ${varied ? 'varied' : 'fixed'}`,
    listener: 'admin',
    method: 'POST',
    path: `${BASE}/${flavor}/allowed`,
    target: varied ? undefined : 0.3,
    // The same request (path, headers, JSON body) answered by a bare Fastify POST route (NestJS's
    // adapter with BENCH_PEER_STACK=nest): what a body costs by itself on this box (fixed rows only, to
    // keep the run's length).
    peer: varied
      ? undefined
      : {
          name: `${peerStackName} JSON POST`,
          script: 'bench/peer/bare-post.mjs',
          request: () => ({
            path: `${BASE}/${flavor}/allowed`,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: allowedInput(flavor, 1234),
          }),
        },
    setup: async (ctx) => {
      await seed(ctx, flavor);
      const headers = { ...ctx.adminHeaders, 'content-type': 'application/json' };
      // The first decision builds the flavor's index from storage: time it once.
      const started = Date.now();
      const first = await ctx.request('admin', 'POST', `${BASE}/${flavor}/allowed`, { headers, body: allowedInput(flavor, 1234) });
      if (first.status !== 200) throw new Error(`the bench request was not allowed: ${first.status} ${JSON.stringify(first.body)}`);
      if (!varied) console.log(`  first ${flavor} decision (index build from storage included): ${Date.now() - started} ms`);
      if (!varied) return { headers, body: allowedInput(flavor, 1234) };
      const users = Array.from({ length: ROLES * 10 }, (_, n) => n).filter((n) => Math.floor(n / 10) % 10 !== 0);
      const bodies = Array.from({ length: 1_000 }, (_, k) => allowedInput(flavor, users[(k * 7919) % users.length]));
      let next = 0;
      return {
        headers,
        body: bodies[0],
        requests: [
          {
            method: 'POST',
            headers,
            setupRequest: (request) => ({ ...request, body: bodies[(next = (next + 1) % bodies.length)] }),
          },
        ],
      };
    },
  };
}

export const policyScenarios = ['regex', 'glob', 'exact'].flatMap((flavor) => [scenario(flavor, false), scenario(flavor, true)]);
