// Account enumeration by timing on recovery and verification: does a submit for a known address answer
// at a different speed than one for an unknown address? Starts the built service (dist/) on free ports
// with a temporary embedded PostgreSQL, creates one identity, then times interleaved submits of API
// recovery and verification flows for that address and for fresh unknown ones, and prints both medians
// and a Mann-Whitney U rank test (normal approximation, two-sided). A p-value well above 0.05 means the
// two branches cannot be told apart at this sample size. Figures on a loaded machine are indicative.
//
//   node scripts/build-if-needed.mjs && node bench/enumeration-timing.mjs
//   ENUM_SAMPLES=60 node bench/enumeration-timing.mjs     # samples per branch and flow (default 30)

/* global fetch, performance */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './stats.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const SAMPLES = Number(process.env.ENUM_SAMPLES ?? 30);
const ADMIN_TOKEN = 'lk_admin_enumeration_timing_0123456789';
const KNOWN = 'known.person@example.com';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitReady(url, child, output) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}):\n${output()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} was not ready within 90 s:\n${output()}`);
}

async function json(url, init = {}) {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** One submit of a fresh API flow of `kind` for `email`: milliseconds from sending to the full answer. */
async function timedSubmit(base, kind, email) {
  const init = await json(`${base}/self-service/${kind}/api`);
  if (init.status !== 200) throw new Error(`${kind} init answered ${init.status}`);
  const started = performance.now();
  const response = await fetch(`${base}/self-service/${kind}?flow=${init.body.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'link', email }),
  });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`${kind} submit answered ${response.status}`);
  return elapsed;
}

/** Mann-Whitney U with tie-corrected normal approximation; two-sided p-value. */
function mannWhitney(a, b) {
  const all = [...a.map((value) => ({ value, group: 0 })), ...b.map((value) => ({ value, group: 1 }))].sort((x, y) => x.value - y.value);
  const ranks = new Array(all.length);
  let tieTerm = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j + 1 < all.length && all[j + 1].value === all[i].value) j += 1;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k += 1) ranks[k] = rank;
    const tied = j - i + 1;
    tieTerm += tied ** 3 - tied;
    i = j + 1;
  }
  const n1 = a.length;
  const n2 = b.length;
  const rankSum = all.reduce((sum, entry, index) => (entry.group === 0 ? sum + ranks[index] : sum), 0);
  const u = rankSum - (n1 * (n1 + 1)) / 2;
  const mean = (n1 * n2) / 2;
  const n = n1 + n2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  const z = (u - mean) / Math.sqrt(variance);
  return { u, z, p: 2 * (1 - normalCdf(Math.abs(z))) };
}

/** Standard normal CDF (Abramowitz–Stegun 7.1.26 via erf). */
function normalCdf(x) {
  const t = 1 / (1 + (0.3275911 * Math.abs(x)) / Math.SQRT2);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'latchkey-enum-'));
  // The embedded PostgreSQL runs as its own user when started as root: it must be able to enter.
  await chmod(dataDir, 0o755);
  const publicPort = await freePort();
  const adminPort = await freePort();
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      PUBLIC_PORT: String(publicPort),
      ADMIN_PORT: String(adminPort),
      ADMIN_TOKENS: ADMIN_TOKEN,
      SECRETS_SYSTEM: 'enumeration-timing-secret-0123456789',
      LOG_LEVEL: 'warn',
      ...(process.env.DATABASE_URL === undefined ? {} : { DATABASE_URL: process.env.DATABASE_URL }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${publicPort}`;
  try {
    await waitReady(`${base}/health/ready`, child, () => output);
    const created = await json(`http://127.0.0.1:${adminPort}/identities`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ traits: { email: KNOWN } }),
    });
    if (created.status !== 201) throw new Error(`creating the identity answered ${created.status}`);
    for (const kind of ['recovery', 'verification']) {
      // Unmeasured warm-up of both branches.
      for (let i = 0; i < 5; i += 1) {
        await timedSubmit(base, kind, KNOWN);
        await timedSubmit(base, kind, `warm-${i}@example.com`);
      }
      const known = [];
      const unknown = [];
      for (let i = 0; i < SAMPLES; i += 1) {
        // Interleaved, the order alternating, so drift in the machine's load hits both branches alike.
        if (i % 2 === 0) {
          known.push(await timedSubmit(base, kind, KNOWN));
          unknown.push(await timedSubmit(base, kind, `nobody-${kind}-${i}@example.com`));
        } else {
          unknown.push(await timedSubmit(base, kind, `nobody-${kind}-${i}@example.com`));
          known.push(await timedSubmit(base, kind, KNOWN));
        }
      }
      const test = mannWhitney(known, unknown);
      console.log(
        `${kind.padEnd(12)} median known ${median(known).toFixed(2)} ms, unknown ${median(unknown).toFixed(2)} ms ` +
          `(n = ${SAMPLES} each); Mann-Whitney U = ${test.u.toFixed(1)}, z = ${test.z.toFixed(2)}, p = ${test.p.toFixed(3)}` +
          (test.p < 0.05 ? '  <- distinguishable' : ''),
      );
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
