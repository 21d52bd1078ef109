// Where the floor goes: the floor scenario's route served by the framework stack alone and then with
// the service's request plumbing added stage by stage (bench/peer/floor-stage.mjs lists the stages),
// each stage its own process, next to bare Fastify. One autocannon in this process loads each target
// in turn for BENCH_DURATION seconds, the order reversed every other round so that a box whose speed
// drifts does not favour one end; every round's rate is divided by bare Fastify's of the same round,
// and the medians of those ratios are reported with each server's CPU per request. The service's own
// floor is the `floor` row of `npm run bench`.
//
//   npm run bench:floor        (node bench/floor-stages.mjs; BENCH_ROUNDS 14, BENCH_DURATION 2)
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { cpuMicros } from './process-cpu.mjs';

const STAGES = [
  'the stack: NestJS Fastify adapter, the route alone',
  '+ the three listeners (listener tag, request id)',
  '+ the listener route constraint',
  '+ the global hooks (histogram, input guard)',
  '+ @fastify/cookie',
  '+ the process-wide V8 flags',
];
const duration = Number(process.env.BENCH_DURATION ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 14);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PATH = '/health/alive?via=fastify';
const START_TIMEOUT_MS = 30_000;

function start(script, env) {
  const child = spawn(process.execPath, [new URL(script, import.meta.url).pathname, '0'], {
    env: { ...process.env, NODE_ENV: 'production', PEER_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise((resolve, reject) => {
    let out = '';
    // A stage that neither listens nor exits (a missing dist/, a hung import) must not hold the run.
    const timer = setTimeout(
      () => reject(new Error(`${script} did not start within ${START_TIMEOUT_MS / 1000} s: ${out}`)),
      START_TIMEOUT_MS,
    );
    timer.unref();
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${out}`)));
    child.stdout.on('data', (data) => {
      out += String(data);
      const url = /\{"url":"([^"]+)"\}/.exec(out)?.[1];
      const port = /READY (\d+)/.exec(out)?.[1];
      if (url !== undefined) resolve(url);
      else if (port !== undefined) resolve(`http://127.0.0.1:${port}`);
    });
  });
  return { child, ready };
}

const servers = [
  { label: 'bare Fastify (GET /)', ...start('./bare-fastify.mjs', {}), path: '/' },
  ...STAGES.map((label, stage) => ({
    label: `${stage}: ${label}`,
    ...start('./peer/floor-stage.mjs', { FLOOR_STAGE: String(stage) }),
    path: PATH,
  })),
];

async function measure(server) {
  const url = `${server.base}${server.path}`;
  const before = cpuMicros(server.child.pid);
  const result = await autocannon({ url, connections, duration });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${server.label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.total / duration, cpu: (cpuMicros(server.child.pid) - before) / result.requests.total };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
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
