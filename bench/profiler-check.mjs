// Which profiler tells the truth on this box: bare Fastify with a busy loop of 40 µs per request
// (`/spin?us=40`, bench/bare-fastify.mjs) under the harness's load, profiled by V8 (`--cpu-prof`) or
// by Linux perf (as BENCH_PERF records the service), against the loop's true share of the server's
// CPU over the same seconds (40 µs × requests ÷ the CPU /proc counted). A profiler that puts the
// loop well below its true share puts that time somewhere else: here, into the socket write.
//
//   node bench/profiler-check.mjs [none|v8|perf ...]      (default: none v8 perf; perf needs Linux perf)
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { mainThreadSamples } from './perf-samples.mjs';
import { cpuMicros } from './process-cpu.mjs';

const LOOP_US = 40;
const modes = process.argv.length > 2 ? process.argv.slice(2) : ['none', 'v8', 'perf'];

/** Whether a V8 profile node is the spin route's handler (its lines in bare-fastify.mjs; 0-based). */
const isSpinHandler = (frame) => frame.url.endsWith('bare-fastify.mjs') && frame.lineNumber >= 12 && frame.lineNumber <= 16;

function v8Shares(folder) {
  const file = readdirSync(folder).find((name) => name.endsWith('.cpuprofile'));
  const profile = JSON.parse(readFileSync(join(folder, file), 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  let busy = 0;
  let loop = 0;
  let write = 0;
  for (const sample of profile.samples) {
    const name = nodes.get(sample).callFrame.functionName;
    if (name === '(idle)') continue;
    busy += 1;
    if (/^(writev|writeUtf8String|writeLatin1String|writeBuffer)$/.test(name)) write += 1;
    else {
      for (let id = sample; id !== undefined; id = parents.get(id)) {
        if (isSpinHandler(nodes.get(id).callFrame)) {
          loop += 1;
          break;
        }
      }
    }
  }
  return { loop: loop / busy, write: write / busy };
}

async function perfShares(folder) {
  let busy = 0;
  let loop = 0;
  let write = 0;
  for await (const frames of mainThreadSamples(join(folder, 'perf.data'))) {
    busy += 1;
    if (frames.some((frame) => /^(__GI___writev|__GI___libc_write)$/.test(frame))) write += 1;
    // The loop reads the clock (hrtime.bigint); TurboFan inlines the handler itself into Fastify's
    // pre-handler, so its own instructions show under that function's name.
    else if (frames.some((frame) => /FastBigInt|clock_gettime|vdso/.test(frame)) || /preHandlerCallbackInner/.test(frames[0] ?? ''))
      loop += 1;
  }
  return { loop: loop / busy, write: write / busy };
}

const percent = (share) => `${(share * 100).toFixed(1)}%`;
for (const mode of modes) {
  const folder = mkdtempSync(join(tmpdir(), `latchkey-profiler-check-${mode}-`));
  const flags = mode === 'v8' ? ['--cpu-prof', `--cpu-prof-dir=${folder}`] : mode === 'perf' ? ['--perf-prof'] : [];
  const server = spawn(process.execPath, [...flags, new URL('./bare-fastify.mjs', import.meta.url).pathname, '0'], {
    cwd: folder,
    env: { ...process.env, BARE_SPIN_ROUTE: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const base = await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.stdout.once('data', (data) => resolve(JSON.parse(String(data)).url));
    });
    const url = `${base}/spin?us=${LOOP_US}`;
    await autocannon({ url, connections: 50, duration: 2 });
    const perf =
      mode === 'perf'
        ? spawn(
            'perf',
            ['record', '-q', '-k', 'mono', '-N', '-F', '499', '-g', '-p', String(server.pid), '-o', join(folder, 'perf.data')],
            {
              stdio: 'ignore',
            },
          )
        : undefined;
    const before = cpuMicros(server.pid);
    const result = await autocannon({ url, connections: 50, duration: 8 });
    const used = cpuMicros(server.pid) - before;
    if (perf !== undefined) {
      perf.kill('SIGINT');
      await new Promise((resolve) => perf.once('close', resolve));
    }
    server.kill('SIGINT');
    await new Promise((resolve) => server.once('close', resolve));
    const truth = (LOOP_US * result.requests.total) / used;
    let line = `${mode}: ${Math.round(result.requests.average)} req/s, ${(used / result.requests.total).toFixed(1)} µs of CPU per request, the loop ${percent(truth)} of it`;
    if (mode === 'v8' || mode === 'perf') {
      const shares = mode === 'v8' ? v8Shares(folder) : await perfShares(folder);
      line += `; the profile: loop ${percent(shares.loop)}, socket write ${percent(shares.write)}`;
    }
    console.log(line);
  } finally {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  }
}
