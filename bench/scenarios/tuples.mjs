// Relation-tuple check scenarios: a direct check and a 3-hop check (through two subject sets), on
// about 10,000 and about 1,000,000 tuples, each answered from the check cache (one fixed tuple, the
// usual hot path) and from the database (a random tuple per request). The data is written with SQL
// (INSERT … SELECT generate_series) straight into the service's database (ctx.databaseUrl): seeding a
// million tuples takes seconds instead of a million HTTP calls. See docs/tuples.md.
//
// Per dataset (one namespace each, so both live in one table; the 10k scenarios run first, before
// the million rows exist):
//   D documents   doc<i>#viewer@user<i>               direct tuple             (D rows)
//                 doc<i>#viewer@<ns>:team<i % T>#member  hop 1                  (D rows)
//   T teams       team<t>#member@<ns>:dept<t % 100>#member   hop 2              (T rows)
//   100 depts     dept<d>#member@boss<d>               hop 3                    (100 rows)
// A 3-hop check asks whether boss<(i % T) % 100> may view doc<i>: three tuples, three BFS levels.
// With the group memo (TUPLES_SET_CACHE_SIZE, on by default) a warm one reads the document's own
// rows in one flat statement and walks teams and departments in memory; with it off, three index
// probes in one recursive statement.
//
// The service runs with TUPLES_CACHE_SIZE=64 during the benchmark: large enough for the cached
// scenarios (one key each), small enough that random tuples practically never hit (10k dataset:
// 64 of 5,000 keys), so the "database" rows measure the indexed path.
/* global URLSearchParams */
import pg from 'pg';
import { sameAnswerPeer } from '../peers.mjs';

const DATASETS = {
  '10k': { namespace: 'bench10k', id: 9101, documents: 5_000 },
  '1M': { namespace: 'bench1m', id: 9102, documents: 500_000 },
};
const DEPARTMENTS = 100;

export const tuplesServiceEnv = {
  NAMESPACES: JSON.stringify(Object.values(DATASETS).map(({ namespace, id }) => ({ name: namespace, id }))),
  TUPLES_CACHE_SIZE: '64',
};

const seeded = new Map();

function teamsOf(dataset) {
  return Math.max(DEPARTMENTS, dataset.documents / 100);
}

/** Seeds a dataset once per run (and not at all when its rows are already there). */
function seed(ctx, dataset) {
  if (!seeded.has(dataset.id)) seeded.set(dataset.id, insertDataset(ctx, dataset));
  return seeded.get(dataset.id);
}

async function insertDataset(ctx, { id, documents, namespace }) {
  if (ctx.databaseUrl === undefined) throw new Error('the harness gave no databaseUrl to seed with');
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    const existing = await client.query('SELECT count(*)::int AS n FROM relation_tuples WHERE namespace_id = $1', [id]);
    if (existing.rows[0].n > 0) return;
    const started = Date.now();
    const teams = teamsOf({ documents });
    const set = (object) => `'s:${id}:' || ${object} || '#member'`;
    await client.query(`INSERT INTO relation_tuples (namespace_id, object, relation, subject_key)
      SELECT ${id}, 'doc' || i, 'viewer', 'i:user' || i FROM generate_series(0, ${documents - 1}) AS i`);
    await client.query(`INSERT INTO relation_tuples (namespace_id, object, relation, subject_key)
      SELECT ${id}, 'doc' || i, 'viewer', ${set(`'team' || (i % ${teams})`)} FROM generate_series(0, ${documents - 1}) AS i`);
    await client.query(`INSERT INTO relation_tuples (namespace_id, object, relation, subject_key)
      SELECT ${id}, 'team' || t, 'member', ${set(`'dept' || (t % ${DEPARTMENTS})`)} FROM generate_series(0, ${teams - 1}) AS t`);
    await client.query(`INSERT INTO relation_tuples (namespace_id, object, relation, subject_key)
      SELECT ${id}, 'dept' || d, 'member', 'i:boss' || d FROM generate_series(0, ${DEPARTMENTS - 1}) AS d`);
    // The steady state of a live table (autovacuum would get there): statistics and visibility map.
    await client.query('VACUUM ANALYZE relation_tuples');
    const total = (await client.query('SELECT count(*)::int AS n FROM relation_tuples WHERE namespace_id = $1', [id])).rows[0].n;
    console.log(
      `  seeded ${total.toLocaleString('en-US')} tuples in namespace ${namespace} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await client.end();
  }
}

function checkPath(dataset, document, hops) {
  const teams = teamsOf(dataset);
  const subject = hops === 1 ? `user${document}` : `boss${(document % teams) % DEPARTMENTS}`;
  return `/check?${new URLSearchParams({ namespace: dataset.namespace, object: `doc${document}`, relation: 'viewer', subject })}`;
}

function scenario(size, hops, cached) {
  const dataset = DATASETS[size];
  return {
    name: `check ${hops === 1 ? 'direct' : '3-hop'}, ${size} tuples, ${cached ? 'cached' : 'database'}`,
    listener: 'admin',
    method: 'GET',
    env: tuplesServiceEnv,
    // The cached path is the one with a target: HTTP + admin auth + validation + an LRU lookup.
    target: cached ? 0.4 : undefined,
    peer: cached ? sameAnswerPeer : undefined,
    setup: async (ctx) => {
      await seed(ctx, dataset);
      const fixed = checkPath(dataset, Math.floor(dataset.documents / 2), hops);
      if (cached) return { path: fixed, headers: ctx.adminHeaders };
      return {
        path: fixed,
        headers: ctx.adminHeaders,
        // autocannon calls setupRequest before every request: a random document each time.
        requests: [
          {
            method: 'GET',
            headers: ctx.adminHeaders,
            setupRequest: (request) => ({ ...request, path: checkPath(dataset, Math.floor(Math.random() * dataset.documents), hops) }),
          },
        ],
      };
    },
  };
}

export const tupleScenarios = [
  scenario('10k', 1, true),
  scenario('10k', 3, true),
  scenario('10k', 1, false),
  scenario('10k', 3, false),
  scenario('1M', 1, true),
  scenario('1M', 3, true),
  scenario('1M', 1, false),
  scenario('1M', 3, false),
];
