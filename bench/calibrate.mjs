// What a ratio to bare Fastify means on this box, in microseconds: bare Fastify itself with a fixed
// amount of synchronous work added to each request (a busy loop of N µs on `/spin?us=N`), measured
// like a scenario (autocannon in this process, 50 connections, the plain `/` as the ceiling,
// rounds alternating) and reported as the ratio it reaches and the server's CPU per request.
//
// On a loopback benchmark the server's socket writes get dearer as the server gets slower: a client
// that waits for answers sleeps, and each answer has to wake it (the IPIs per request column,
// bench/wakeups.mjs). So the ratio falls faster than the added work alone explains; this table turns a
// ratio goal into the per-request budget it leaves.
//
//   node bench/calibrate.mjs [µs ...]      (default: 0 2 5 10 20 40; BENCH_DURATION, BENCH_ROUNDS)
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { cpuMicros } from './process-cpu.mjs';
import { median } from './stats.mjs';
import { wakeupInterrupts, wakeupsPerRequest } from './wakeups.mjs';

const spins = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [0, 2, 5, 10, 20, 40];
const duration = Number(process.env.BENCH_DURATION ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

const server = spawn(process.execPath, [new URL('./bare-fastify.mjs', import.meta.url).pathname, '0'], {
  env: { ...process.env, BARE_SPIN_ROUTE: '1' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const base = await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.stdout.once('data', (data) => resolve(JSON.parse(String(data)).url));
});

async function measure(path) {
  await autocannon({ url: `${base}${path}`, connections, duration: 1 });
  const before = cpuMicros(server.pid);
  const wakeupsBefore = wakeupInterrupts();
  const result = await autocannon({ url: `${base}${path}`, connections, duration });
  const wakeups = wakeupsPerRequest(wakeupsBefore, wakeupInterrupts(), result.requests.total);
  return { rps: result.requests.average, cpu: (cpuMicros(server.pid) - before) / result.requests.total, wakeups };
}

try {
  console.log(`calibration: bare Fastify + N µs of work per request, ${rounds} rounds × ${duration} s, ${connections} connections`);
  console.log('| added work | req/s | ratio to bare | server CPU µs/req | IPIs/req (spun / bare) |');
  console.log('|---|---|---|---|---|');
  for (const spin of spins) {
    const ratios = [];
    const rates = [];
    const cpus = [];
    const wakeups = { spun: [], bare: [] };
    for (let round = 0; round < rounds; round++) {
      const spun = await measure(`/spin?us=${spin}`);
      const bare = await measure('/');
      ratios.push(spun.rps / bare.rps);
      rates.push(spun.rps);
      cpus.push(spun.cpu);
      wakeups.spun.push(spun.wakeups ?? NaN);
      wakeups.bare.push(bare.wakeups ?? NaN);
    }
    const ipis = (values) => (values.every(Number.isFinite) ? median(values).toFixed(2) : '—');
    console.log(
      `| ${spin} µs | ${Math.round(median(rates)).toLocaleString('en-US')} | ${median(ratios).toFixed(2)} | ${median(cpus).toFixed(1)} | ${ipis(wakeups.spun)} / ${ipis(wakeups.bare)} |`,
    );
  }
} finally {
  server.kill('SIGTERM');
}
