// Where the floor goes: the floor scenario's route served by the framework stack alone and then with
// the service's request plumbing added stage by stage (bench/peer/floor-stage.mjs lists the stages),
// each stage its own process, next to bare Fastify. One autocannon in this process loads each target
// in turn for BENCH_DURATION seconds, the order reversed every other round so that a box whose speed
// drifts does not favour one end; every round's rate is divided by bare Fastify's of the same round,
// and the medians of those ratios are reported with each server's CPU per request. The service's own
// floor is the `floor` row of `npm run bench`.
//
//   npm run bench:floor        (node bench/floor-stages.mjs; BENCH_ROUNDS 14, BENCH_DURATION 2)
//
// BENCH_INSTRUCTIONS=1 counts instead of timing: each target runs under valgrind's callgrind and the
// table gives its instructions per request (bench/instructions.mjs), which do not move with the box's
// speed, with each stage's difference to the one before: the way to see what a sub-microsecond change
// to this plumbing did. Two targets are counted at a time; about five minutes in all.
import autocannon from 'autocannon';
import { callgrindAvailable, countInstructions, INSTRUCTION_SETTINGS } from './instructions.mjs';
import { cpuMicros } from './process-cpu.mjs';
import { otherServerFlags } from './server-flags.mjs';
import { startServer } from './start-server.mjs';
import { median } from './stats.mjs';

// Every target starts with the flags of the benchmarks' other servers (bench/server-flags.mjs): each
// waits while the others are loaded, and V8 must not shrink its heap meanwhile. Stages 0-5 thereby
// already run with pretenuring off, which stage 6 adds at run time as the service does.
const SERVER_FLAGS = await otherServerFlags();

const STAGES = [
  'the stack: NestJS Fastify adapter, the route alone',
  "- the adapter's idle request hooks",
  '+ the three listeners (request classes, request id)',
  '+ the listener route constraint',
  '+ the global hooks (histogram, input guard)',
  '+ @fastify/cookie',
  '+ the process-wide V8 flags',
];
const duration = Number(process.env.BENCH_DURATION ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 14);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PATH = '/health/alive?via=fastify';

/** Starts a target from bench/ with the server flags, natively or (BENCH_INSTRUCTIONS) under callgrind. */
function start(target, counted) {
  return startServer(new URL(target.script, import.meta.url).pathname, target.env, {
    nodeArgs: SERVER_FLAGS,
    counted,
    timeoutMs: counted ? 120_000 : 30_000,
  });
}

const targets = [
  { label: 'bare Fastify (GET /)', script: './bare-fastify.mjs', env: {}, path: '/' },
  ...STAGES.map((label, stage) => ({
    label: `${stage}: ${label}`,
    script: './peer/floor-stage.mjs',
    env: { FLOOR_STAGE: String(stage) },
    path: PATH,
  })),
];

if (['1', 'true', 'yes', 'on'].includes((process.env.BENCH_INSTRUCTIONS ?? '').toLowerCase())) {
  process.exit(await countStages());
}

/** BENCH_INSTRUCTIONS: every target under callgrind, two at a time (the box's two cores), counted in turn. */
async function countStages() {
  if (!(await callgrindAvailable())) {
    console.error('BENCH_INSTRUCTIONS needs valgrind (with callgrind_control) on the PATH (Debian: apt-get install valgrind)');
    return 2;
  }
  const { warmup, discard, batch, batches } = INSTRUCTION_SETTINGS;
  console.log(
    `the floor, stage by stage, in instructions: each target under callgrind, ${warmup} requests of warm-up, ${discard} discarded, ` +
      `then ${batches} batches of ${batch}; medians of the batches`,
  );
  const counted = [];
  for (let index = 0; index < targets.length; index += 2) {
    counted.push(
      ...(await Promise.all(
        targets.slice(index, index + 2).map(async (target) => {
          const server = start(target, true);
          try {
            return await countInstructions(server, `${await server.ready}${target.path}`);
          } finally {
            server.child.kill('SIGKILL');
          }
        }),
      )),
    );
  }
  console.log('| target | main thread, instructions/request | Δ to the row above | all threads |');
  console.log('|---|---|---|---|');
  targets.forEach((target, index) => {
    const delta =
      index < 2
        ? '—'
        : `${counted[index].main - counted[index - 1].main >= 0 ? '+' : ''}${Math.round(counted[index].main - counted[index - 1].main)}`;
    console.log(`| ${target.label} | ${Math.round(counted[index].main)} | ${delta} | ${Math.round(counted[index].all)} |`);
  });
  return 0;
}

const servers = targets.map((target) => ({ ...target, ...start(target, false) }));

async function measure(server) {
  const url = `${server.base}${server.path}`;
  const before = cpuMicros(server.child.pid);
  const result = await autocannon({ url, connections, duration });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${server.label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.total / duration, cpu: (cpuMicros(server.child.pid) - before) / result.requests.total };
}

try {
  for (const server of servers) server.base = await server.ready;
  for (const server of servers) await autocannon({ url: `${server.base}${server.path}`, connections, duration: 1 });
  console.log(
    `the floor, stage by stage: ${rounds} rounds × ${duration} s per target, ${connections} connections, order reversed every other round`,
  );
  const ratios = servers.map(() => []);
  const cpus = servers.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const order = servers.map((_, index) => index);
    if (round % 2 === 1) order.reverse();
    const rates = [];
    for (const index of order) {
      const run = await measure(servers[index]);
      rates[index] = run.rps;
      cpus[index].push(run.cpu);
    }
    servers.forEach((_, index) => ratios[index].push(rates[index] / rates[0]));
  }
  console.log('| target | ratio to bare (median, range) | server CPU µs/req |');
  console.log('|---|---|---|');
  servers.forEach((server, index) => {
    const range = `${Math.min(...ratios[index]).toFixed(2)}–${Math.max(...ratios[index]).toFixed(2)}`;
    console.log(`| ${server.label} | ${median(ratios[index]).toFixed(2)} (${range}) | ${median(cpus[index]).toFixed(1)} |`);
  });
} finally {
  for (const server of servers) server.child.kill('SIGTERM');
}
