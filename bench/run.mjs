// Load benchmarks: boots a bare Fastify "hello" and the built service (dist/src/main.js) as child
// processes, then, scenario by scenario, measures the scenario and the bare ceiling interleaved in
// several rounds and reports medians and the ratio scenario / bare. See docs/benchmarks.md.
//
//   npm run bench                                   (builds dist/ when needed)
//   BENCH_FILTER=alive BENCH_ROUNDS=5 npm run bench
//
// Settings (environment): BENCH_ROUNDS (3), BENCH_DURATION seconds (5), BENCH_WARMUP seconds (1),
// BENCH_CONNECTIONS (50), BENCH_FILTER (substring of scenario names; several separated by "|"),
// BENCH_STRICT=1 (exit 1 when a target is missed or a scenario errors). DATABASE_URL, when set by the
// caller, is passed to the service; otherwise this script starts an embedded PostgreSQL in a temporary data folder and hands
// its URL to the service and to scenario setups (ctx.databaseUrl, e.g. to seed rows with SQL); its
// CPU counts as the service's database CPU. A scenario's `env` is added to the service's environment.
// A flow scenario may declare a `baseline` flow, measured in every round next to it: its figure is
// then the median of the rounds' scenario ÷ baseline ratios (bench/scenarios.mjs lists the fields).
// The services start with the flags `npm start` passes (NODE_START_FLAGS); bare Fastify and the peers
// with those and the V8 settings that make them run as the service runs (bench/server-flags.mjs: an
// idle server's heap is not shrunk while the others are loaded). BENCH_SERVICE_NODE_ARGS adds
// Node flags to their command lines only (main and variants; space-separated), e.g.
// "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the service under load (NODE_OPTIONS refuses
// --cpu-prof, and would reach every process of the run).
// A request scenario may name a `peer` (another server doing the same job, e.g. node-oidc-provider for
// client_credentials; a bare Fastify + @fastify/reply-from for the proxy): it is measured in the same
// rounds and shown as `÷ peer`. Its `env(urls, probe)` may use the run's URLs (e.g. `urls.bare` as an
// upstream) and the service's answer to the probe; its `request(env, request)` gets the scenario's
// request ({ path, method, headers, body, requests }; bench/peers.mjs: a bare Fastify sending the
// service's own answer). A peer that throws while starting is skipped with the reason.
// BENCH_PERF=<folder> records the service with Linux `perf` while each scenario's measured runs load it,
// one file per run, for bench/perf-report.mjs (where the main thread's time went, kernel included).
// Every row also shows the machine's wake-ups (IPIs) per request, bench/wakeups.mjs.
// BENCH_INSTRUCTIONS=1 counts instead of timing: the service, bare Fastify and the peers run under
// valgrind's callgrind, and each request scenario gets its instructions per request (main thread),
// bare Fastify's and its peer's, and the ratio bare ÷ scenario (bench/instructions.mjs): figures that
// do not move with the box's speed, for telling what a change did. Flow scenarios, variants and
// scenarios whose requests vary are not counted; results go to bench/results/instructions.json.
// BENCH_QUIET=1 refuses to report a run on a busy box: it waits (up to a minute) until processes other
// than the benchmark's use less than BENCH_QUIET_MAX_FOREIGN (0.1) of a core, and after the run it
// refuses the results (exit code 3, no results file) if they used more than that on average meanwhile.
/* global fetch, AbortSignal, performance */
import autocannon from 'autocannon';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { scenarios as allScenarios } from './scenarios.mjs';
import { median } from './stats.mjs';
import { PEER_STACKS, peerStack } from './peer/peer-app.mjs';
import { otherServerFlags } from './server-flags.mjs';
import { wakeupInterrupts, wakeupsPerRequest } from './wakeups.mjs';
import { callgrindAvailable, callgrindCommand, countInstructions, INSTRUCTION_SETTINGS } from './instructions.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const RESULTS_FILE = join(ROOT, 'bench', 'results', 'latest.json');
const INSTRUCTIONS_FILE = join(ROOT, 'bench', 'results', 'instructions.json');
const MAX_ERROR_RATIO = 0.01;
const READY_TIMEOUT_MS = 90_000;
/** Under callgrind (BENCH_INSTRUCTIONS) a process starts several times slower. */
const readyTimeoutMs = () => (underCallgrind ? 5 : 1) * READY_TIMEOUT_MS;
const STOP_TIMEOUT_MS = 20_000;

class UsageError extends Error {}

// ---------------------------------------------------------------------------------------------------
// Settings

function intSetting(name, fallback, min, max) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`${name} must be a whole number between ${min} and ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function peerStackSetting() {
  try {
    return peerStack({ PEER_STACK: process.env.BENCH_PEER_STACK });
  } catch {
    throw new UsageError(`BENCH_PEER_STACK must be one of ${PEER_STACKS.join(', ')}, got "${process.env.BENCH_PEER_STACK}"`);
  }
}

function readSettings() {
  return {
    rounds: intSetting('BENCH_ROUNDS', 3, 1, 99),
    duration: intSetting('BENCH_DURATION', 5, 1, 3600),
    warmup: intSetting('BENCH_WARMUP', 1, 0, 600),
    connections: intSetting('BENCH_CONNECTIONS', 50, 1, 10_000),
    filter: process.env.BENCH_FILTER ?? '',
    strict: ['1', 'true', 'yes', 'on'].includes((process.env.BENCH_STRICT ?? '').toLowerCase()),
    quiet: ['1', 'true', 'yes', 'on'].includes((process.env.BENCH_QUIET ?? '').toLowerCase()),
    // Quiet mode: the most other (non-benchmark) CPU allowed, as a share of one core, before and during the run.
    quietMaxForeign: Number(process.env.BENCH_QUIET_MAX_FOREIGN ?? '0.1'),
    // A folder for `perf record` files of the service's measured runs (bench/perf-report.mjs reads them).
    perf: (process.env.BENCH_PERF ?? '') === '' ? undefined : resolve(process.env.BENCH_PERF),
    // The stack the answering peers run on (bench/peer/peer-app.mjs): bare Fastify, or NestJS's adapter.
    peerStack: peerStackSetting(),
    // Count instructions under callgrind instead of timing (bench/instructions.mjs).
    instructions: ['1', 'true', 'yes', 'on'].includes((process.env.BENCH_INSTRUCTIONS ?? '').toLowerCase()),
  };
}

// ---------------------------------------------------------------------------------------------------
// Child processes (detached: a Ctrl-C in the terminal reaches only this process, which then stops
// the children in order; the service gets exactly one SIGTERM and stops its PostgreSQL last)

const children = [];
let currentLoad;
/** BENCH_INSTRUCTIONS: every Node child runs under callgrind. */
let underCallgrind = false;
/** The Node flags every server of the run starts with (NODE_START_FLAGS, read from dist/ by main). */
let nodeStartFlags = [];
/** Bare Fastify's and the peers' Node flags (bench/server-flags.mjs). */
let serverFlags = [];
/** CPU seconds of benchmark children that have exited (see ownSeconds). */
let retiredSeconds = 0;

function startChild(label, args, env, cwd = ROOT) {
  const command = underCallgrind ? callgrindCommand(args) : { file: process.execPath, args };
  const child = spawn(command.file, command.args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const entry = {
    label,
    child,
    env,
    out: '',
    logLines: [],
    exited: new Promise((resolve) => child.once('exit', (code, sig) => resolve(sig ?? code))),
  };
  const keep = (chunk) => {
    entry.out = (entry.out + chunk.toString()).slice(-20_000);
    for (const line of chunk.toString().split('\n')) if (line.trim() !== '') entry.logLines.push(line);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  children.push(entry);
  return entry;
}

async function stopChild(entry, dataDir) {
  if (entry.child.exitCode !== null || entry.child.signalCode !== null) return;
  // Its CPU stays the benchmark's after it is gone (quiet mode tells ours from other processes').
  const last = cpuSeconds(entry.child.pid);
  if (last !== undefined) retiredSeconds += last.self + last.descendants + last.reaped;
  entry.child.kill('SIGTERM');
  const result = await Promise.race([entry.exited, sleep(STOP_TIMEOUT_MS, 'timeout')]);
  if (result !== 'timeout') return;
  process.stderr.write(`${entry.label} did not stop within ${STOP_TIMEOUT_MS / 1000} s: killing it\n`);
  entry.child.kill('SIGKILL');
  await entry.exited;
  // A killed service leaves its embedded PostgreSQL running; stop that postmaster (ours: it lives in
  // the temporary data folder this run created).
  if (dataDir !== undefined) {
    try {
      const pid = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (Number.isInteger(pid) && pid > 0) process.kill(pid, 'SIGQUIT');
      await sleep(1000);
    } catch {
      // no embedded PostgreSQL, or it is already gone
    }
  }
}

async function waitFor(entry, url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (entry.child.exitCode !== null || entry.child.signalCode !== null) {
      throw new Error(`${entry.label} exited (${entry.child.exitCode ?? entry.child.signalCode}) before ${url} answered:\n${entry.out}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    await sleep(100);
  }
  throw new Error(`${url} was not ready within ${timeoutMs / 1000} s (last: ${last}):\n${entry.out}`);
}

// ---------------------------------------------------------------------------------------------------
// CPU time from /proc (Linux): the process and, for the service, its descendants (embedded PostgreSQL)

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** `pid`, or `<pid>/task/<tid>` for one thread. */
function procStat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // utime + stime; cutime + cstime: the CPU of its children that have exited and been waited for.
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), reaped: Number(fields[13]) + Number(fields[14]) };
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds of `pid`, of its main thread (the event loop, for Node) and of all its live descendants,
 * and (`reaped`) of the descendants that have exited meanwhile (a database backend whose connection
 * closed), or undefined where /proc is missing.
 */
function cpuSeconds(pid) {
  const own = procStat(pid);
  if (own === undefined) return undefined;
  const childrenOf = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = procStat(name);
    if (stat === undefined) continue;
    if (!childrenOf.has(stat.ppid)) childrenOf.set(stat.ppid, []);
    childrenOf.get(stat.ppid).push({ pid: Number(name), ticks: stat.ticks, reaped: stat.reaped });
  }
  let descendants = 0;
  let reaped = own.reaped;
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of childrenOf.get(queue.shift()) ?? []) {
      descendants += child.ticks;
      reaped += child.reaped;
      queue.push(child.pid);
    }
  }
  const main = procStat(`${pid}/task/${pid}`);
  return {
    self: own.ticks / CLK_TCK,
    main: main === undefined ? undefined : main.ticks / CLK_TCK,
    descendants: descendants / CLK_TCK,
    reaped: reaped / CLK_TCK,
  };
}

/** Busy CPU seconds of the whole machine so far (all cores), from /proc/stat. */
function machineBusySeconds() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: busy = all but idle and iowait.
    const busy = fields.slice(0, 8).reduce((total, value, index) => (index === 3 || index === 4 ? total : total + value), 0);
    return busy / CLK_TCK;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds of this benchmark's processes: itself, bare Fastify, the service (and its children,
 * also those that exited), the peers, the database, and the Redis the rate-limit scenarios count in
 * (any `redis-server`: it is not ours to start, but its work during the run is the benchmark's).
 */
function ownSeconds(databasePid) {
  const self = process.cpuUsage();
  let total = (self.user + self.system) / 1e6 + retiredSeconds;
  for (const entry of children) {
    if (entry.child.exitCode !== null || entry.child.signalCode !== null) continue;
    const cpu = cpuSeconds(entry.child.pid);
    if (cpu !== undefined) total += cpu.self + cpu.descendants + cpu.reaped;
  }
  const database = databasePid === undefined ? undefined : cpuSeconds(databasePid);
  if (database !== undefined) total += database.self + database.descendants + database.reaped;
  return total + redisSeconds();
}

/** CPU seconds of every running `redis-server`. */
function redisSeconds() {
  let total = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/comm`, 'utf8').trim() !== 'redis-server') continue;
    } catch {
      continue;
    }
    const stat = procStat(name);
    if (stat !== undefined) total += stat.ticks / CLK_TCK;
  }
  return total;
}

/** Samples, over `seconds`, the CPU share (of one core) used by processes other than the benchmark's. */
async function foreignShare(seconds, databasePid) {
  const [machine0, own0] = [machineBusySeconds(), ownSeconds(databasePid)];
  const started = performance.now();
  await sleep(seconds * 1000);
  const elapsed = (performance.now() - started) / 1000;
  const [machine1, own1] = [machineBusySeconds(), ownSeconds(databasePid)];
  if (machine0 === undefined || machine1 === undefined) return undefined;
  return Math.max(0, machine1 - machine0 - (own1 - own0)) / elapsed;
}

// ---------------------------------------------------------------------------------------------------
// Load

function load(target, seconds, connections) {
  return new Promise((resolve, reject) => {
    currentLoad = autocannon(
      {
        url: target.url,
        method: target.method,
        headers: target.headers,
        body: target.body,
        requests: target.requests,
        connections,
        duration: seconds,
      },
      (error, result) => {
        currentLoad = undefined;
        if (error) reject(error);
        else resolve(result);
      },
    );
  });
}

// BENCH_PERF: `perf record` of the service while a scenario's measured run loads it (not its warm-up,
// not bare Fastify's or a peer's runs), one file per run, named after the scenario. The kernel's
// sampling sees the time spent inside system calls (the socket writes, the client's wake-ups), which
// V8's own profiler (BENCH_SERVICE_NODE_ARGS="--cpu-prof") over-counts on these machines; the sampling
// slows the service, so a perf run's ratios are not comparable with others: read it for shares.
const PERF_FREQUENCY = 499;
const perfRuns = new Map();

async function recorded(settings, pid, profileAs, run) {
  if (settings.perf === undefined || profileAs === undefined) return run();
  const slug = profileAs
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
  const index = (perfRuns.get(slug) ?? 0) + 1;
  perfRuns.set(slug, index);
  const file = join(settings.perf, `${slug}.${index}.perf.data`);
  // -k mono: the clock V8's code record is stamped with; -N: no copies of the binaries into ~/.debug.
  const perf = spawn('perf', ['record', '-q', '-k', 'mono', '-N', '-F', String(PERF_FREQUENCY), '-g', '-p', String(pid), '-o', file], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  perf.stderr.on('data', (data) => (errors += data));
  // A perf that cannot start loses this run's record, not the benchmark: 'close' follows with the code.
  perf.once('error', (error) => (errors += error.message));
  const exited = new Promise((resolve) => perf.once('close', resolve));
  try {
    return await run();
  } finally {
    perf.kill('SIGINT');
    const code = await Promise.race([exited, sleep(STOP_TIMEOUT_MS).then(() => 'timeout')]);
    if (code === 'timeout') perf.kill('SIGKILL');
    // perf record ends on the SIGINT it was sent: that is its normal end (code null, or 0 once it handled it).
    else if (code !== 0 && code !== null)
      console.log(`  perf record of ${profileAs} ended with ${code}: ${errors.trim().split('\n')[0] ?? ''}`);
  }
}

/**
 * One measured run: optional warm-up, then `duration` seconds with CPU and wake-up accounting; with
 * BENCH_PERF, recorded under the name `profileAs` when one is given.
 */
async function measure(target, pid, settings, databasePid, profileAs) {
  if (settings.warmup > 0) await load(target, settings.warmup, settings.connections);
  const before = withDatabase(cpuSeconds(pid), databasePid);
  const wakeupsBefore = wakeupInterrupts();
  const result = await recorded(settings, pid, profileAs, () => load(target, settings.duration, settings.connections));
  const wakeupsAfter = wakeupInterrupts();
  const after = withDatabase(cpuSeconds(pid), databasePid);
  const completed = result.requests.total;
  const perRequestUs = (a, b) => (completed > 0 ? ((b - a) * 1e6) / completed : undefined);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: completed,
    non2xx: result.non2xx,
    errors: result.errors, // connection errors, timeouts included
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count])),
    cpuUsPerRequest: before && after ? perRequestUs(before.self, after.self) : undefined,
    childCpuUsPerRequest: before && after ? perRequestUs(childSeconds(before), childSeconds(after)) : undefined,
    wakeupsPerRequest: wakeupsPerRequest(wakeupsBefore, wakeupsAfter, completed),
  };
}

/** Adds the CPU of a PostgreSQL this script started (postmaster and backends) to the service's children. */
function withDatabase(cpu, databasePid) {
  const database = databasePid === undefined ? undefined : cpuSeconds(databasePid);
  if (cpu === undefined || database === undefined) return cpu;
  return { ...cpu, descendants: cpu.descendants + database.self + database.descendants, reaped: cpu.reaped + database.reaped };
}

/**
 * The children's CPU so far, those that have exited included: a database backend that exits during a
 * run moves its CPU from the live descendants to its parent's reaped count, and counting only the live
 * ones made such a run's figure negative.
 */
function childSeconds(cpu) {
  return cpu.descendants + cpu.reaped;
}

// ---------------------------------------------------------------------------------------------------
// Flow scenarios: setup returns { flow }, an async function that runs one complete multi-request flow
// (e.g. an OAuth2 code flow across both listeners) and throws when a step fails. `concurrency` flows
// (default BENCH_CONNECTIONS) run at once for the duration; the figure is completed flows per second,
// printed beside the bare-Fastify req/s of the same rounds (no ratio: the units differ). With a
// `baseline` flow, each round measures bare Fastify, the baseline and the scenario back to back (the
// order reversed every other round), and the ratio to the baseline is taken per round.

async function runFlows(flow, seconds, concurrency) {
  const deadline = Date.now() + seconds * 1000;
  const latencies = [];
  let failed = 0;
  let firstError;
  const worker = async () => {
    while (Date.now() < deadline) {
      const start = performance.now();
      try {
        await flow();
        latencies.push(performance.now() - start);
      } catch (error) {
        failed += 1;
        firstError ??= error;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, failed, firstError, seconds: (performance.now() - started) / 1000 };
}

async function measureFlows(flow, pid, settings, databasePid, concurrency, profileAs) {
  if (settings.warmup > 0) await runFlows(flow, settings.warmup, concurrency);
  const before = withDatabase(cpuSeconds(pid), databasePid);
  const benchBefore = process.cpuUsage();
  const wakeupsBefore = wakeupInterrupts();
  const run = await recorded(settings, pid, profileAs, () => runFlows(flow, settings.duration, concurrency));
  const wakeupsAfter = wakeupInterrupts();
  const bench = process.cpuUsage(benchBefore);
  const after = withDatabase(cpuSeconds(pid), databasePid);
  const completed = run.latencies.length;
  const sorted = [...run.latencies].sort((a, b) => a - b);
  const percentile = (p) => (completed > 0 ? sorted[Math.min(completed - 1, Math.floor((p / 100) * completed))] : undefined);
  const perFlowUs = (a, b) => (completed > 0 ? ((b - a) * 1e6) / completed : undefined);
  return {
    rps: completed / run.seconds,
    p50: percentile(50),
    p99: percentile(99),
    requests: completed,
    non2xx: 0,
    errors: run.failed,
    firstError: run.firstError === undefined ? undefined : String(run.firstError.message ?? run.firstError).split('\n')[0],
    statusCodes: {},
    cpuUsPerRequest: before && after ? perFlowUs(before.self, after.self) : undefined,
    childCpuUsPerRequest: before && after ? perFlowUs(childSeconds(before), childSeconds(after)) : undefined,
    // Of the service's CPU, its main thread's (the event loop; the rest is libuv's pool, e.g. hashing,
    // and V8's helper threads).
    mainCpuUsPerRequest: before?.main !== undefined && after?.main !== undefined ? perFlowUs(before.main, after.main) : undefined,
    // This process's CPU (µs, user + system) per flow: the HTTP client's, or all of a baseline that
    // runs here (e.g. a raw hash).
    benchCpuUsPerRequest: completed > 0 ? (bench.user + bench.system) / completed : undefined,
    wakeupsPerRequest: wakeupsPerRequest(wakeupsBefore, wakeupsAfter, completed),
  };
}

async function runFlowScenario(scenario, flow, baselineFlow, env, base) {
  const { settings, urls, bare, service, databasePid } = env;
  const concurrency = scenario.concurrency ?? settings.connections;
  const ceiling = { url: `${urls.bare}/`, method: 'GET' };
  const baseline = scenario.baseline;
  console.log(`\n${scenario.name} (${concurrency} concurrent flows${baseline ? `; baseline: ${baseline.name}` : ''})`);
  if (scenario.warmup > 0) {
    console.log(`  warm-up: ${scenario.warmup} s of unmeasured flows`);
    await runFlows(flow, scenario.warmup, concurrency);
  }
  const runs = { scenario: [], bare: [], baseline: [] };
  for (let round = 0; round < settings.rounds; round += 1) {
    // Alternate the order, so a drift in the machine's speed favours no side: bare, baseline, scenario,
    // then scenario, baseline, bare, ... (the baseline, when there is one, stays next to the scenario).
    const sides = baseline ? ['bare', 'baseline', 'scenario'] : ['bare', 'scenario'];
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      let run;
      if (side === 'bare') run = await measure(ceiling, bare.child.pid, settings);
      else if (side === 'baseline') run = await measureFlows(baselineFlow, service.child.pid, settings, databasePid, concurrency);
      else run = await measureFlows(flow, service.child.pid, settings, databasePid, concurrency, scenario.name);
      runs[side].push(run);
    }
    const s = runs.scenario[round];
    const b = runs.bare[round];
    const versus = baseline ? runs.baseline[round] : undefined;
    console.log(
      `  round ${round + 1}/${settings.rounds}: ${fmtInt(s.rps)} flows/s p99 ${fmtMs(s.p99)} ms per flow${s.errors > 0 ? ` (${s.errors} failed: ${s.firstError})` : ''}` +
        (versus
          ? ` | baseline ${fmtInt(versus.rps)} flows/s${versus.errors > 0 ? ` (${versus.errors} failed: ${versus.firstError})` : ''}` +
            ` | ÷ baseline ${fmtRatio(s.rps / versus.rps)}`
          : '') +
        ` | bare ${fmtInt(b.rps)} req/s p99 ${fmtMs(b.p99)} ms`,
    );
  }
  const flows = sum(runs.scenario.map((run) => run.requests));
  const failed = sum([...runs.scenario, ...runs.baseline].map((run) => run.errors));
  const errorRatio = flows + failed > 0 ? failed / (flows + failed) : 0;
  // As the bare ratio of request scenarios: taken per round (the two measured back to back), then the median.
  const versusBaseline = baseline ? median(runs.scenario.map((run, index) => run.rps / runs.baseline[index].rps)) : undefined;
  let verdict;
  if (errorRatio > MAX_ERROR_RATIO) verdict = 'ERRORS';
  else if (scenario.target === undefined || versusBaseline === undefined) verdict = '—';
  else verdict = versusBaseline >= scenario.target ? 'ok' : 'BELOW';
  return {
    ...base,
    path: '(flow)',
    unit: 'flows/s',
    status: 'measured',
    median: summarise(runs.scenario),
    bare: summarise(runs.bare),
    ratio: undefined,
    baseline: baseline
      ? {
          name: baseline.name,
          median: summarise(runs.baseline),
          ratio: versusBaseline,
          overhead: 1 - versusBaseline,
          ratioOfMedians: median(runs.scenario.map((run) => run.rps)) / median(runs.baseline.map((run) => run.rps)),
        }
      : undefined,
    verdict,
    requests: flows,
    non2xx: 0,
    errors: failed,
    errorRatio,
    statusCodes: {},
    bareNon2xxOrErrors: sum(runs.bare.map((run) => run.non2xx + run.errors)),
    rounds: runs.scenario.map((run, index) => ({
      scenario: run,
      bare: runs.bare[index],
      ...(baseline ? { baseline: runs.baseline[index], ratioToBaseline: run.rps / runs.baseline[index].rps } : {}),
    })),
  };
}

function summarise(runs) {
  return {
    rps: median(runs.map((run) => run.rps)),
    p99: median(runs.map((run) => run.p99)),
    cpuUsPerRequest: median(runs.map((run) => run.cpuUsPerRequest)),
    childCpuUsPerRequest: median(runs.map((run) => run.childCpuUsPerRequest)),
    mainCpuUsPerRequest: median(runs.map((run) => run.mainCpuUsPerRequest)),
    benchCpuUsPerRequest: median(runs.map((run) => run.benchCpuUsPerRequest)),
    wakeupsPerRequest: median(runs.map((run) => run.wakeupsPerRequest)),
  };
}

// ---------------------------------------------------------------------------------------------------
// Scenario context (what setup functions get)

function makeContext(urls, adminToken, databaseUrl) {
  const adminHeaders = { authorization: `Bearer ${adminToken}` };
  const request = async (listener, method, path, options = {}) => {
    const { headers, body } = encodeBody(options.headers ?? {}, options.body);
    const response = await fetch(`${urls[listener]}${path}`, { method, headers, body, signal: AbortSignal.timeout(10_000) });
    const text = await response.text();
    let parsed = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: Object.fromEntries(response.headers), body: parsed, text };
  };
  return {
    urls: { public: urls.public, admin: urls.admin, proxy: urls.proxy, bare: urls.bare },
    databaseUrl,
    adminToken,
    adminHeaders,
    request,
    async admin(method, path, body) {
      const response = await request('admin', method, path, { headers: adminHeaders, body });
      if (response.status < 200 || response.status > 299) throw new Error(`${method} ${path} answered ${describe(response)}`);
      return response.body;
    },
  };
}

function encodeBody(headers, body) {
  if (body === undefined || typeof body === 'string') return { headers, body };
  const hasType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  return { headers: hasType ? headers : { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

function describe(response) {
  const body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body ?? '');
  return `${response.status}${body === '' || body === '""' ? '' : ` ${body.slice(0, 160)}`}`;
}

/**
 * Starts a scenario's peer (a child process that prints "READY <port>") and returns what to load it
 * with, or throws when it cannot serve the request, does not start or its probe fails (and then leaves
 * no peer running for the rest of the run).
 */
async function startPeer(peer, urls, probe, request, settings) {
  const env = peer.env?.(urls, probe) ?? {};
  const peerRequest = peer.request(env, request);
  const entry = startChild(`peer ${peer.name}`, [...serverFlags, peer.script], {
    ...process.env,
    ...env,
    PEER_PORT: '0',
    PEER_STACK: settings.peerStack,
    NODE_ENV: 'production',
  });
  try {
    const started = Date.now();
    let match;
    while ((match = /READY (\d+)/.exec(entry.out)) === null) {
      if (entry.child.exitCode !== null) throw new Error(`peer exited: ${entry.out.slice(-300)}`);
      if (Date.now() - started > readyTimeoutMs()) throw new Error(`peer did not start: ${entry.out.slice(-300)}`);
      await sleep(50);
    }
    const target = {
      url: `http://127.0.0.1:${match[1]}${peerRequest.path}`,
      method: peerRequest.method,
      headers: peerRequest.headers,
      body: peerRequest.body,
    };
    const peerProbe = await fetch(target.url, {
      method: target.method,
      headers: target.headers,
      body: target.body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await peerProbe.text();
    if (!peerProbe.ok) throw new Error(`peer probe answered ${peerProbe.status} ${text.slice(0, 160)}`);
    return { entry, target };
  } catch (error) {
    await stopChild(entry);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------
// One scenario

async function runScenario(scenario, env) {
  const { ctx, settings, urls, bare, service, databasePid } = env;
  const base = { name: scenario.name, listener: scenario.listener, method: scenario.method, target: scenario.target };
  let resolved;
  let extra;
  let baselineFlow;
  let probe;
  try {
    if (!['public', 'admin', 'proxy'].includes(scenario.listener)) throw new Error(`unknown listener "${scenario.listener}"`);
    extra = (await scenario.setup?.(ctx)) ?? {};
    if (typeof extra.flow === 'function') {
      // A flow scenario: one complete flow is its probe (and one of its baseline's, if it has one).
      await extra.flow();
      if (scenario.baseline !== undefined) {
        baselineFlow = (await scenario.baseline.setup(ctx))?.flow;
        if (typeof baselineFlow !== 'function') throw new Error(`baseline "${scenario.baseline.name}": setup returned no flow`);
        await baselineFlow();
      }
    } else {
      if (scenario.baseline !== undefined) throw new Error('a baseline is for flow scenarios only');
      resolved = {
        path: extra.path ?? scenario.path,
        ...encodeBody({ ...scenario.headers, ...extra.headers }, extra.body ?? scenario.body),
      };
      if (typeof resolved.path !== 'string' || !resolved.path.startsWith('/'))
        throw new Error('no path (set path, or return one from setup)');
      probe = await ctx.request(scenario.listener, scenario.method, resolved.path, resolved);
      if (probe.status < 200 || probe.status > 299)
        throw new Error(`probe ${scenario.method} ${resolved.path} answered ${describe(probe)}`);
    }
  } catch (error) {
    const reason = (error.message ?? String(error)).split('\n')[0];
    console.log(`\n${scenario.name}: skipped (${reason})`);
    return { ...base, path: resolved?.path ?? scenario.path, status: 'skipped', reason };
  }
  const notCounted = settings.instructions ? whyNotCounted(scenario, extra) : undefined;
  if (notCounted !== undefined) {
    console.log(`\n${scenario.name}: not counted (${notCounted})`);
    return { ...base, path: resolved?.path ?? scenario.path, status: 'skipped', reason: `not counted: ${notCounted}` };
  }
  if (typeof extra.flow === 'function') return runFlowScenario(scenario, extra.flow, baselineFlow, env, base);

  const target = {
    url: `${urls[scenario.listener]}${resolved.path}`,
    method: scenario.method,
    headers: resolved.headers,
    body: resolved.body,
    requests: extra.requests,
  };
  const ceiling = { url: `${urls.bare}/`, method: 'GET' };
  if (scenario.variant !== undefined) return runVariantScenario(scenario, target, resolved, env, base);
  console.log(`\n${scenario.name} (${scenario.listener} ${scenario.method} ${resolved.path})`);
  let peer;
  let peerSkipped;
  if (scenario.peer !== undefined) {
    try {
      peer = await startPeer(scenario.peer, urls, probe, { ...resolved, method: scenario.method, requests: extra.requests }, settings);
      console.log(`  peer: ${scenario.peer.name}, ${peer.target.method} ${peer.target.url}`);
    } catch (error) {
      peerSkipped = (error.message ?? String(error)).split('\n')[0];
      console.log(`  peer ${scenario.peer.name}: skipped (${peerSkipped})`);
    }
  }
  if (settings.instructions) return countScenario(target, peer, peerSkipped, env, base, resolved);
  if (scenario.warmup > 0) {
    console.log(`  warm-up: ${scenario.warmup} s of unmeasured load`);
    await load(target, scenario.warmup, settings.connections);
  }
  const runs = { scenario: [], bare: [], peer: [] };
  for (let round = 0; round < settings.rounds; round += 1) {
    // Alternate the order (bare first, then scenario first, ...) so a drift in the machine's speed
    // during the run does not favour one side; the peer, when there is one, stays next to the scenario.
    const sides = peer === undefined ? ['bare', 'scenario'] : ['bare', 'scenario', 'peer'];
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      let run;
      if (side === 'bare') run = await measure(ceiling, bare.child.pid, settings);
      else if (side === 'peer') run = await measure(peer.target, peer.entry.child.pid, settings);
      else run = await measure(target, service.child.pid, settings, databasePid, scenario.name);
      runs[side].push(run);
    }
    const s = runs.scenario[round];
    const b = runs.bare[round];
    const p = runs.peer[round];
    console.log(
      `  round ${round + 1}/${settings.rounds}: ${fmtInt(s.rps)} req/s p99 ${fmtMs(s.p99)} ms${s.non2xx + s.errors > 0 ? ` (${s.non2xx} non-2xx, ${s.errors} errors)` : ''}` +
        ` | bare ${fmtInt(b.rps)} req/s p99 ${fmtMs(b.p99)} ms | ratio ${fmtRatio(s.rps / b.rps)}` +
        (p === undefined
          ? ''
          : ` | peer ${fmtInt(p.rps)} req/s${p.non2xx + p.errors > 0 ? ` (${p.non2xx + p.errors} failed)` : ''} | ÷ peer ${fmtRatio(s.rps / p.rps)}`),
    );
  }
  if (peer !== undefined) await stopChild(peer.entry);

  const scenarioSummary = summarise(runs.scenario);
  const bareSummary = summarise(runs.bare);
  const requests = sum(runs.scenario.map((run) => run.requests));
  const non2xx = sum(runs.scenario.map((run) => run.non2xx));
  const errors = sum(runs.scenario.map((run) => run.errors));
  const failed = non2xx + errors;
  const errorRatio = requests + errors > 0 ? failed / (requests + errors) : 0;
  // The ratio is taken per round (scenario and bare measured back to back) and then the median: the
  // ceiling swings by tens of percent within a run, and a ratio of two medians from different rounds
  // would mix those swings in.
  const ratio = median(runs.scenario.map((run, index) => run.rps / runs.bare[index].rps));
  const versusPeer = peer === undefined ? undefined : median(runs.scenario.map((run, index) => run.rps / runs.peer[index].rps));
  let verdict;
  if (errorRatio > MAX_ERROR_RATIO) verdict = 'ERRORS';
  else if (scenario.target === undefined) verdict = '—';
  else if (ratio < scenario.target) verdict = 'BELOW';
  else if (scenario.peer?.target !== undefined && versusPeer !== undefined && versusPeer < scenario.peer.target) verdict = 'BELOW PEER';
  else verdict = 'ok';
  const statusCodes = {};
  for (const run of runs.scenario)
    for (const [code, count] of Object.entries(run.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  return {
    ...base,
    path: resolved.path,
    status: 'measured',
    median: scenarioSummary,
    bare: bareSummary,
    ratio,
    ratioOfMedians: scenarioSummary.rps / bareSummary.rps,
    verdict,
    requests,
    non2xx,
    errors,
    errorRatio,
    statusCodes,
    bareNon2xxOrErrors: sum(runs.bare.map((run) => run.non2xx + run.errors)),
    peer:
      scenario.peer === undefined
        ? undefined
        : {
            name: scenario.peer.name,
            target: scenario.peer.target,
            ...(peer === undefined ? { status: 'skipped', reason: peerSkipped } : { median: summarise(runs.peer), ratio: versusPeer }),
          },
    rounds: runs.scenario.map((run, index) => ({
      scenario: run,
      bare: runs.bare[index],
      ratio: run.rps / runs.bare[index].rps,
      ...(peer === undefined ? {} : { peer: runs.peer[index], ratioToPeer: run.rps / runs.peer[index].rps }),
    })),
  };
}

// ---------------------------------------------------------------------------------------------------
// BENCH_INSTRUCTIONS: instructions per request of the service, bare Fastify (counted once per run) and
// the scenario's peer, each under callgrind (bench/instructions.mjs)

let bareCount;

/** Why a scenario is not counted (only fixed requests are), or undefined. */
function whyNotCounted(scenario, extra) {
  if (typeof extra.flow === 'function') return 'a flow';
  if (scenario.variant !== undefined) return 'a variant';
  if (extra.requests !== undefined) return 'its requests vary';
  return undefined;
}

async function countScenario(target, peer, peerSkipped, env, base, resolved) {
  const { bare, service, urls } = env;
  const count = async (label, entry, request) => {
    const result = await countInstructions(entry, request);
    console.log(`  ${label}: ${fmtInt(result.main)} instructions/request (main thread; all threads ${fmtInt(result.all)})`);
    return result;
  };
  try {
    bareCount ??= await count('bare Fastify', bare, { url: `${urls.bare}/`, method: 'GET' });
    const scenarioCount = await count('service', service, target);
    const peerCount = peer === undefined ? undefined : await count(`peer ${peer.entry.label}`, peer.entry, peer.target);
    return {
      ...base,
      path: resolved.path,
      status: 'counted',
      instructions: {
        service: scenarioCount,
        bare: bareCount,
        ratio: bareCount.main / scenarioCount.main,
        peer: peerCount === undefined ? undefined : { name: peer.entry.label, ...peerCount, ratio: peerCount.main / scenarioCount.main },
        peerSkipped,
      },
    };
  } catch (error) {
    const reason = (error.message ?? String(error)).split('\n')[0];
    console.log(`  not counted: ${reason}`);
    return { ...base, path: resolved.path, status: 'skipped', reason };
  } finally {
    if (peer !== undefined) await stopChild(peer.entry);
  }
}

function instructionsTable(results) {
  const header = [
    'scenario',
    'service instr/req',
    'bare instr/req',
    'bare ÷ service',
    'peer instr/req',
    'peer ÷ service',
    'service − peer',
  ];
  const rows = results.map((result) => {
    if (result.status !== 'counted') return [result.name, '—', '—', '—', '—', '—', result.reason ?? '—'];
    const { service, bare, ratio, peer } = result.instructions;
    return [
      result.name,
      fmtInt(service.main),
      fmtInt(bare.main),
      fmtRatio(ratio),
      peer === undefined ? '—' : `${fmtInt(peer.main)} (${peer.name})`,
      peer === undefined ? '—' : fmtRatio(peer.ratio),
      peer === undefined ? '—' : fmtInt(service.main - peer.main),
    ];
  });
  return [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Variant scenarios: the same requests on a second service started with the variant's settings (same
// database and secrets), against the main service. Each round measures bare Fastify, the main service
// and the variant (the order reversed every other round); the figure is the median of the rounds'
// variant ÷ main ratios, shown in the "÷ baseline" column with the main service's figures on a row of
// their own, and `target` applies to it.

const variantServices = new Map();
const VARIANT_WARMUP_SECONDS = 5;

/**
 * How the main service and its variants (the rate-limit scenarios measure a variant) are started: the
 * start flags `npm start` passes, then BENCH_SERVICE_NODE_ARGS. With BENCH_PERF, V8 also writes the
 * code it compiles, with the time it did, to a `jit-<pid>.dump` in the folder the service runs in (the
 * perf folder): V8 reuses the memory of code it dropped, so only a timed record names every sample's
 * JavaScript function right (a plain address map names some after code that lived there earlier).
 */
function serviceCommand(settings) {
  const extra = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  const main = join(ROOT, 'dist', 'src', 'main.js');
  if (settings.perf === undefined) return { args: [...nodeStartFlags, ...extra, main], cwd: ROOT };
  return { args: [...nodeStartFlags, ...extra, '--perf-prof', main], cwd: settings.perf };
}

async function variantService(variant, env) {
  let running = variantServices.get(variant.name);
  if (running === undefined) {
    running = (async () => {
      const { freePort } = await import(join(ROOT, 'dist', 'src', 'common', 'net', 'free-port.js'));
      const [publicPort, adminPort] = [await freePort(), await freePort()];
      const command = serviceCommand(env.settings);
      const child = startChild(
        `service (${variant.name})`,
        command.args,
        {
          ...env.serviceEnv,
          ...variant.env,
          PUBLIC_PORT: String(publicPort),
          ADMIN_PORT: String(adminPort),
          // The main service holds the proxy port; a variant serves no proxy scenario.
          PROXY_PORT: '',
        },
        command.cwd,
      );
      const urls = { public: `http://127.0.0.1:${publicPort}`, admin: `http://127.0.0.1:${adminPort}` };
      await Promise.all([
        waitFor(child, `${urls.public}/health/ready`, readyTimeoutMs()),
        waitFor(child, `${urls.admin}/health/ready`, readyTimeoutMs()),
      ]);
      return { entry: child, urls };
    })();
    variantServices.set(variant.name, running);
  }
  return running;
}

async function runVariantScenario(scenario, target, resolved, env, base) {
  const { settings, urls, bare, service, databasePid } = env;
  const variant = await variantService(scenario.variant, env);
  const variantTarget = { ...target, url: `${variant.urls[scenario.listener]}${resolved.path}` };
  const probe = await fetch(variantTarget.url, { method: target.method, headers: target.headers, body: target.body });
  await probe.arrayBuffer();
  if (probe.status < 200 || probe.status > 299) {
    const reason = `probe on the ${scenario.variant.name} service answered ${probe.status}`;
    console.log(`\n${scenario.name}: skipped (${reason})`);
    return { ...base, path: resolved.path, status: 'skipped', reason };
  }
  const ceiling = { url: `${urls.bare}/`, method: 'GET' };
  console.log(
    `\n${scenario.name} (${scenario.listener} ${scenario.method} ${resolved.path}; ${scenario.variant.name} vs the main service)`,
  );
  // The variant's process has served nothing yet while the main one has run every earlier scenario: one
  // second of warm-up leaves the variant's code paths unoptimised (measured: a variant identical to the
  // main service came out at 0.25-0.45 of it in the first round), so both get a longer unmeasured load.
  const warmup = Math.max(scenario.warmup ?? 0, VARIANT_WARMUP_SECONDS);
  console.log(`  warm-up: ${warmup} s of unmeasured load on each service`);
  await load(target, warmup, settings.connections);
  await load(variantTarget, warmup, settings.connections);
  const runs = { scenario: [], bare: [], baseline: [] };
  for (let round = 0; round < settings.rounds; round += 1) {
    const sides = ['bare', 'baseline', 'scenario'];
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      if (side === 'bare') runs.bare.push(await measure(ceiling, bare.child.pid, settings));
      else if (side === 'baseline') runs.baseline.push(await measure(target, service.child.pid, settings, databasePid));
      else
        runs.scenario.push(
          await measure(variantTarget, variant.entry.child.pid, settings, databasePid, `${scenario.name}, ${scenario.variant.name}`),
        );
    }
    const [s, m, b] = [runs.scenario[round], runs.baseline[round], runs.bare[round]];
    console.log(
      `  round ${round + 1}/${settings.rounds}: ${fmtInt(s.rps)} req/s${s.non2xx + s.errors > 0 ? ` (${s.non2xx} non-2xx, ${s.errors} errors)` : ''}` +
        ` | main ${fmtInt(m.rps)} req/s | ÷ main ${fmtRatio(s.rps / m.rps)} | bare ${fmtInt(b.rps)} req/s`,
    );
  }
  const requests = sum(runs.scenario.map((run) => run.requests));
  const non2xx = sum(runs.scenario.map((run) => run.non2xx));
  const errors = sum(runs.scenario.map((run) => run.errors));
  const errorRatio = requests + errors > 0 ? (non2xx + errors) / (requests + errors) : 0;
  const versusMain = median(runs.scenario.map((run, index) => run.rps / runs.baseline[index].rps));
  let verdict;
  if (errorRatio > MAX_ERROR_RATIO) verdict = 'ERRORS';
  else if (scenario.target === undefined) verdict = '—';
  else verdict = versusMain >= scenario.target ? 'ok' : 'BELOW';
  const statusCodes = {};
  for (const run of runs.scenario)
    for (const [code, count] of Object.entries(run.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  return {
    ...base,
    path: resolved.path,
    status: 'measured',
    median: summarise(runs.scenario),
    bare: summarise(runs.bare),
    ratio: median(runs.scenario.map((run, index) => run.rps / runs.bare[index].rps)),
    baseline: {
      name: scenario.variant.baselineName ?? 'main service',
      median: summarise(runs.baseline),
      ratio: versusMain,
      overhead: 1 - versusMain,
      ratioOfMedians: median(runs.scenario.map((run) => run.rps)) / median(runs.baseline.map((run) => run.rps)),
    },
    verdict,
    requests,
    non2xx,
    errors,
    errorRatio,
    statusCodes,
    bareNon2xxOrErrors: sum(runs.bare.map((run) => run.non2xx + run.errors)),
    rounds: runs.scenario.map((run, index) => ({
      scenario: run,
      bare: runs.bare[index],
      baseline: runs.baseline[index],
      ratioToBaseline: run.rps / runs.baseline[index].rps,
    })),
  };
}

// ---------------------------------------------------------------------------------------------------
// Output

const sum = (values) => values.reduce((total, value) => total + value, 0);
const fmtInt = (value) => (value === undefined || !Number.isFinite(value) ? '—' : Math.round(value).toLocaleString('en-US'));
const fmtMs = (value) => (value === undefined || !Number.isFinite(value) ? '—' : String(Math.round(value * 10) / 10));
const fmtRatio = (value) => (value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(2));
const fmtUs = (value) => (value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(1));

function table(results) {
  const header = [
    'scenario',
    'req/s (median)',
    'p99 ms',
    'non-2xx',
    'bare req/s',
    'bare p99',
    'ratio',
    '÷ baseline (overhead)',
    '÷ peer',
    'target',
    'verdict',
    'CPU µs/req (svc + db / bare)',
    'IPIs/req (row / bare)',
  ];
  // The service's main thread is shown where the service did the work (not on a baseline's row).
  const cpu = (summary, bareSummary, { showMain = true } = {}) => {
    const main = !showMain || summary.mainCpuUsPerRequest === undefined ? '' : ` (main ${fmtUs(summary.mainCpuUsPerRequest)})`;
    const cells = `${fmtUs(summary.cpuUsPerRequest)}${main} + ${fmtUs(summary.childCpuUsPerRequest)} / ${fmtUs(bareSummary.cpuUsPerRequest)}`;
    return summary.benchCpuUsPerRequest === undefined ? cells : `${cells} (bench ${fmtUs(summary.benchCpuUsPerRequest)})`;
  };
  // The machine's wake-ups per request (bench/wakeups.mjs) of the row and of bare Fastify in the same rounds.
  const wakeups = (summary, bareSummary) => `${fmtRatio(summary.wakeupsPerRequest)} / ${fmtRatio(bareSummary.wakeupsPerRequest)}`;
  const rows = [];
  for (const result of results) {
    if (result.status === 'skipped') {
      rows.push([result.name, '—', '—', '—', '—', '—', '—', '—', '—', result.target?.toFixed(2) ?? '—', 'skipped', '—', '—']);
      continue;
    }
    const unit = result.unit === undefined ? '' : ` ${result.unit}`;
    const { baseline } = result;
    // The baseline's own figures first, on a row of their own (same bare runs: measured in the same rounds).
    if (baseline !== undefined) {
      rows.push([
        `  baseline: ${baseline.name}`,
        `${fmtInt(baseline.median.rps)}${unit}`,
        fmtMs(baseline.median.p99),
        '—',
        fmtInt(result.bare.rps),
        fmtMs(result.bare.p99),
        '—',
        '1',
        '—',
        '—',
        '—',
        cpu(baseline.median, result.bare, { showMain: false }),
        wakeups(baseline.median, result.bare),
      ]);
    }
    rows.push([
      result.name,
      `${fmtInt(result.median.rps)}${unit}`,
      fmtMs(result.median.p99),
      `${result.non2xx + result.errors}${result.non2xx + result.errors > 0 ? ` (${(result.errorRatio * 100).toFixed(1)}%)` : ''}`,
      fmtInt(result.bare.rps),
      fmtMs(result.bare.p99),
      fmtRatio(result.ratio),
      baseline === undefined ? '—' : `${fmtRatio(baseline.ratio)} (${Math.round(baseline.overhead * 100)}%)`,
      result.peer === undefined
        ? '—'
        : result.peer.ratio === undefined
          ? 'skipped'
          : `${fmtRatio(result.peer.ratio)} (${result.peer.name})`,
      `${result.target?.toFixed(2) ?? '—'}${result.peer?.target === undefined ? '' : `, ${result.peer.target}× peer`}`,
      result.verdict,
      cpu(result.median, result.bare),
      wakeups(result.median, result.bare),
    ]);
    if (result.peer?.median !== undefined) {
      rows.push([
        `  peer: ${result.peer.name}`,
        fmtInt(result.peer.median.rps),
        fmtMs(result.peer.median.p99),
        '—',
        fmtInt(result.bare.rps),
        fmtMs(result.bare.p99),
        fmtRatio(result.peer.median.rps / result.bare.rps),
        '—',
        '1',
        '—',
        '—',
        `${fmtUs(result.peer.median.cpuUsPerRequest)} / ${fmtUs(result.bare.cpuUsPerRequest)}`,
        wakeups(result.peer.median, result.bare),
      ]);
    }
  }
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Main

let dataDir;
let database;
let cleaning;

function cleanup() {
  cleaning ??= (async () => {
    currentLoad?.stop();
    // Service first (it may take a moment to stop its PostgreSQL), bare Fastify alongside.
    await Promise.all(children.map((entry) => stopChild(entry, entry.label === 'service' ? dataDir : undefined)));
    await database?.stop().catch(() => {});
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true }).catch(() => {});
  })();
  return cleaning;
}

let interrupted = 0;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    interrupted += 1;
    if (interrupted > 1) {
      process.stderr.write('\nInterrupted again: killing the child processes now.\n');
      for (const entry of children) entry.child.kill('SIGKILL');
      process.exit(130);
    }
    process.stderr.write(`\n${signal}: stopping the servers and removing the temporary data folder...\n`);
    cleanup().finally(() => process.exit(130));
  });
}

/**
 * The caller's DATABASE_URL, or an embedded PostgreSQL started here (the service's own start code,
 * from dist/), so scenario setups can reach the service's database. Returns the postmaster's pid for
 * CPU accounting when it is ours.
 */
async function openDatabase(external) {
  if (external) return { databaseUrl: process.env.DATABASE_URL, databasePid: undefined };
  const { startEmbeddedPostgres } = await import(join(ROOT, 'dist', 'src', 'database', 'database-server.js'));
  const directory = join(dataDir, 'bench-postgres');
  database = await startEmbeddedPostgres({
    dataDir: directory,
    database: 'latchkey',
    persistent: false,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const pid = Number(readFileSync(join(directory, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return { databaseUrl: database.url, databasePid: Number.isInteger(pid) && pid > 0 ? pid : undefined };
}

async function main() {
  const settings = readSettings();
  // Several substrings separated by "|" select every scenario that contains one of them (e.g. the floor
  // and one route, to compare them in one run).
  // An empty alternative ("floor|") would match every name: only the empty filter means all.
  const alternatives = settings.filter
    .toLowerCase()
    .split('|')
    .filter((filter) => filter !== '');
  const filters = alternatives.length === 0 ? [''] : alternatives;
  const scenarios = allScenarios.filter((scenario) => filters.some((filter) => scenario.name.toLowerCase().includes(filter)));
  if (scenarios.length === 0)
    throw new UsageError(`BENCH_FILTER="${settings.filter}" matches no scenario (${allScenarios.map((s) => s.name).join(', ')})`);
  if (!existsSync(join(ROOT, 'dist', 'src', 'main.js')))
    throw new UsageError('dist/src/main.js is missing: run `npm run bench` (it builds first) or `npm run build`');

  const perRun = settings.warmup + settings.duration;
  const runsPerRound = (scenario) =>
    scenario.baseline === undefined && scenario.variant === undefined && scenario.peer === undefined ? 2 : 3;
  const estimate = sum(scenarios.map((scenario) => settings.rounds * runsPerRound(scenario) * perRun + (scenario.warmup ?? 0)));
  const external = (process.env.DATABASE_URL ?? '') !== '';
  const cpuList = cpus();
  console.log('Latchkey benchmarks');
  console.log(
    `  machine: ${cpuList.length} × ${cpuList[0]?.model ?? 'unknown CPU'}, Node ${process.version}, load average ${loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `  method: per scenario ${settings.rounds} rounds, each a ${settings.warmup} s warm-up + ${settings.duration} s measured run of the scenario and of bare Fastify (interleaved), ` +
      `${settings.connections} connections, autocannon in this process (same cores); medians reported`,
  );
  if (settings.peerStack !== 'fastify')
    console.log(`  peers: the answering peers run inside NestJS's Fastify adapter (BENCH_PEER_STACK=${settings.peerStack})`);
  console.log(
    `  service: NODE_ENV=production, LOG_LEVEL=warn (request logging is off during the run), database ${external ? 'DATABASE_URL (external)' : 'embedded PostgreSQL in a temporary folder'}`,
  );
  console.log(
    `  scenarios: ${scenarios.length} of ${allScenarios.length}; about ${estimate < 120 ? `${estimate} s` : `${Math.ceil(estimate / 60)} min`} of load`,
  );

  if (settings.instructions) {
    if (settings.perf !== undefined) throw new UsageError('BENCH_INSTRUCTIONS and BENCH_PERF cannot be combined');
    if (!(await callgrindAvailable()))
      throw new UsageError('BENCH_INSTRUCTIONS needs valgrind (with callgrind_control) on the PATH (Debian: apt-get install valgrind)');
    underCallgrind = true;
    const { warmup, discard, batch, batches } = INSTRUCTION_SETTINGS;
    console.log(
      `  counting, not timing (BENCH_INSTRUCTIONS): every server under callgrind; per target ${warmup} requests of warm-up, ${discard} discarded, ` +
        `${batches} batches of ${batch} counted (medians); the load figures above do not apply`,
    );
  }
  if (settings.quiet && !settings.instructions) await waitForQuiet(settings);
  if (settings.perf !== undefined) {
    try {
      execFileSync('perf', ['--version'], { stdio: 'ignore' });
    } catch {
      throw new UsageError('BENCH_PERF needs Linux perf on the PATH (Debian: apt-get install linux-perf)');
    }
    await mkdir(settings.perf, { recursive: true });
    console.log(
      `  perf: the service's measured runs are recorded into ${settings.perf} (read them with node bench/perf-report.mjs); the sampling slows the service, so read this run for shares, not ratios`,
    );
  }

  dataDir = await mkdtemp(join(tmpdir(), 'latchkey-bench-'));
  // Under root, the embedded PostgreSQL runs as the `postgres` user, which must be able to enter it.
  await chmod(dataDir, 0o755);
  const adminToken = `bench-admin-${randomBytes(16).toString('hex')}`;
  const { freePort } = await import(join(ROOT, 'dist', 'src', 'common', 'net', 'free-port.js'));
  const [publicPort, adminPort, proxyPort] = [await freePort(), await freePort(), await freePort()];
  const { databaseUrl, databasePid } = await openDatabase(external);

  ({ NODE_START_FLAGS: nodeStartFlags } = await import(join(ROOT, 'dist', 'src', 'common', 'runtime', 'start-flags.js')));
  serverFlags = await otherServerFlags();
  const bare = startChild('bare Fastify', [...serverFlags, 'bench/bare-fastify.mjs', '0'], { ...process.env, NODE_ENV: 'production' });
  const serviceEnv = {
    ...process.env,
    ...Object.assign({}, ...scenarios.map((scenario) => scenario.env ?? {})),
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PUBLIC_PORT: String(publicPort),
    ADMIN_PORT: String(adminPort),
    PROXY_PORT: String(proxyPort),
    DATA_DIR: dataDir,
    ADMIN_TOKENS: adminToken,
    ADMIN_AUTH: 'on',
    SECRETS_SYSTEM: `bench-system-${randomBytes(16).toString('hex')}`,
    LOG_LEVEL: 'warn',
    CONFIG_FILE: '',
  };
  const command = serviceCommand(settings);
  const service = startChild('service', command.args, serviceEnv, command.cwd);
  const urls = { public: `http://127.0.0.1:${publicPort}`, admin: `http://127.0.0.1:${adminPort}`, proxy: `http://127.0.0.1:${proxyPort}` };

  const started = Date.now();
  while (!/"url"/.test(bare.out)) {
    if (bare.child.exitCode !== null) throw new Error(`bare Fastify exited: ${bare.out}`);
    if (Date.now() - started > (underCallgrind ? 60_000 : 10_000)) throw new Error(`bare Fastify did not start: ${bare.out}`);
    await sleep(50);
  }
  urls.bare = JSON.parse(/\{"url".*\}/.exec(bare.out)[0]).url;
  await waitFor(bare, `${urls.bare}/`, readyTimeoutMs());
  await Promise.all([
    waitFor(service, `${urls.public}/health/ready`, readyTimeoutMs()),
    waitFor(service, `${urls.admin}/health/ready`, readyTimeoutMs()),
  ]);
  console.log(`  ready in ${((Date.now() - started) / 1000).toFixed(1)} s: bare ${urls.bare}, public ${urls.public}, admin ${urls.admin}`);
  // Lines logged from here on are warnings or errors (LOG_LEVEL=warn); let the start banner pass first.
  for (let waited = 0; waited < 2000 && !/is ready/.test(service.out); waited += 50) await sleep(50);
  const logLinesAtStart = service.logLines.length;

  const ctx = makeContext(urls, adminToken, databaseUrl);
  const results = [];
  const [machineAtStart, ownAtStart, startedAt] = [machineBusySeconds(), ownSeconds(databasePid), performance.now()];
  for (const scenario of scenarios)
    results.push(await runScenario(scenario, { ctx, settings, urls, bare, service, serviceEnv, databasePid }));
  if (settings.instructions) return reportInstructions(results, settings);
  const elapsed = (performance.now() - startedAt) / 1000;
  const machineAtEnd = machineBusySeconds();
  // Other processes' CPU during the run, as a share of one core.
  const foreign =
    machineAtStart === undefined || machineAtEnd === undefined
      ? undefined
      : Math.max(0, machineAtEnd - machineAtStart - (ownSeconds(databasePid) - ownAtStart)) / elapsed;
  console.log(
    `\nOther processes used ${foreign === undefined ? 'an unknown share' : `${foreign.toFixed(2)}`} of a core on average during the run.`,
  );
  if (settings.quiet && (foreign === undefined || foreign > settings.quietMaxForeign)) {
    console.log(`BENCH_QUIET: the box was not quiet (limit ${settings.quietMaxForeign} of a core): results not reported.`);
    return 3;
  }

  console.log(
    "\nResults (medians of the rounds; ratio = median of each round's scenario req/s ÷ bare Fastify req/s; ÷ baseline = median of each round's flows/s ÷ the baseline's, overhead = 1 − that; a target applies to ÷ baseline when there is one)\n",
  );
  console.log(table(results));
  const serviceLogs = service.logLines.slice(logLinesAtStart);
  if (serviceLogs.length > 0)
    console.log(`\nThe service logged ${serviceLogs.length} warning/error line(s) during the run; first: ${serviceLogs[0].slice(0, 300)}`);
  for (const result of results) {
    if (result.status === 'measured' && result.bareNon2xxOrErrors > 0)
      console.log(`Note: bare Fastify had ${result.bareNon2xxOrErrors} failed requests during "${result.name}".`);
    if (result.verdict === 'ERRORS')
      console.log(
        `${result.name}: ${(result.errorRatio * 100).toFixed(1)}% non-2xx or failed requests, status codes ${JSON.stringify(result.statusCodes)}`,
      );
  }

  const report = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpuList.length,
      model: cpuList[0]?.model,
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      loadavg: loadavg(),
    },
    settings: { ...settings, maxErrorRatio: MAX_ERROR_RATIO, loader: 'autocannon (programmatic, bench process)' },
    service: { nodeEnv: 'production', logLevel: 'warn', requestLogging: false, database: external ? 'external' : 'embedded' },
    results,
  };
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nJSON: ${RESULTS_FILE.slice(ROOT.length)}`);

  const missed = results.filter((result) => ['BELOW', 'BELOW PEER', 'ERRORS'].includes(result.verdict));
  if (missed.length > 0) {
    console.log(
      `${missed.length} scenario(s) below target or with errors: ${missed.map((result) => result.name).join(', ')}${settings.strict ? '' : ' (informative; BENCH_STRICT=1 makes this fail)'}`,
    );
  }
  return settings.strict && missed.length > 0 ? 1 : 0;
}

/** BENCH_INSTRUCTIONS: the counts' table and their JSON file (bench/results/instructions.json). */
async function reportInstructions(results, settings) {
  console.log(
    '\nInstructions per request (main thread, medians of the batches; bare ÷ service is the counted analogue of the ratio, kernel work excluded)\n',
  );
  console.log(instructionsTable(results));
  const report = { date: new Date().toISOString(), node: process.version, settings: { ...settings, ...INSTRUCTION_SETTINGS }, results };
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(INSTRUCTIONS_FILE, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nJSON: ${INSTRUCTIONS_FILE.slice(ROOT.length)}`);
  return 0;
}

/** Quiet mode: waits up to a minute for other processes to calm down, else refuses to run. */
async function waitForQuiet(settings) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const share = await foreignShare(5);
    if (share === undefined) throw new QuietError('BENCH_QUIET needs /proc/stat to tell whether the box is quiet');
    console.log(`  quiet check: other processes use ${share.toFixed(2)} of a core (limit ${settings.quietMaxForeign})`);
    if (share <= settings.quietMaxForeign) return;
    if (Date.now() > deadline) throw new QuietError('BENCH_QUIET: the box stayed busy for a minute; not running');
  }
}

class QuietError extends Error {}

main().then(
  async (code) => {
    await cleanup();
    process.exit(code);
  },
  async (error) => {
    const known = error instanceof UsageError || error instanceof QuietError;
    process.stderr.write(`\nBenchmark failed: ${known ? error.message : (error.stack ?? String(error))}\n`);
    await cleanup();
    process.exit(error instanceof UsageError ? 2 : error instanceof QuietError ? 3 : 1);
  },
);
