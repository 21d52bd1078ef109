// Instructions per request, counted by valgrind's callgrind: a count that does not move with the
// box's speed, for changes of a microsecond or less that a rate on these machines cannot show (bare
// Fastify's own rate moves 2× within minutes; the same binary, inputs and requests give the same count
// within about 1%). Only user space is counted (the kernel's socket work is not), and a count is not a
// time, so it ranks changes to our own code; rates stay the figures the goals are stated in.
//
// A server runs under callgrind with instrumentation off (so it starts and warms up at a few times
// its native cost), is warmed up, then counted: instrumentation on, a discarded batch (valgrind
// translates the code again), then batches of requests, each between a zero and a read of the
// counters. The main thread's count is the one reported; the total adds V8's helper threads
// (compiler, GC), which move more from batch to batch.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { reportDump } from './callgrind-report.mjs';
import { median } from './stats.mjs';

const run = promisify(execFile);

export const INSTRUCTION_SETTINGS = {
  warmup: Number(process.env.BENCH_INSTRUCTIONS_WARMUP ?? 20_000),
  discard: Number(process.env.BENCH_INSTRUCTIONS_DISCARD ?? 5_000),
  batch: Number(process.env.BENCH_INSTRUCTIONS_BATCH ?? 3_000),
  batches: Number(process.env.BENCH_INSTRUCTIONS_BATCHES ?? 5),
  connections: 4,
};

/**
 * BENCH_INSTRUCTIONS_DUMP=<dir>: after its batches, every count dumps one more batch, the main
 * thread's functions, to <dir> (callgrind files, V8's perf maps named by the process) and writes
 * beside it what bench/callgrind-report.mjs makes of it: where a request's instructions went.
 */
const DUMP_DIR = process.env.BENCH_INSTRUCTIONS_DUMP ? resolve(process.env.BENCH_INSTRUCTIONS_DUMP) : undefined;

/** Whether valgrind's callgrind and its control program are installed. */
export async function callgrindAvailable() {
  try {
    await run('valgrind', ['--version']);
    await run('callgrind_control', ['--version']);
    return true;
  } catch {
    return false;
  }
}

/** The command that runs `node <nodeArgs>` under callgrind, uncounted until countInstructions turns it on. */
export function callgrindCommand(nodeArgs) {
  if (DUMP_DIR !== undefined) mkdirSync(DUMP_DIR, { recursive: true });
  const output =
    DUMP_DIR === undefined
      ? ['--callgrind-out-file=/dev/null']
      : ['--separate-threads=yes', `--callgrind-out-file=${DUMP_DIR}/callgrind.%p`];
  // V8 then writes /tmp/perf-<pid>.map, which names its generated code in the dump's report.
  const nodeNames = DUMP_DIR === undefined ? [] : ['--perf-basic-prof'];
  return { file: 'valgrind', args: ['--tool=callgrind', '--instr-atstart=no', ...output, process.execPath, ...nodeNames, ...nodeArgs] };
}

/**
 * `count` requests `{ url, method, headers, body }` (GET with no body when only a URL is given) over
 * `connections` keep-alive connections; fails on any non-2xx.
 */
async function loadRequests(target, count, connections) {
  const { url, method = 'GET', headers = {}, body } = typeof target === 'string' ? { url: target } : target;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let left = count;
  const one = () =>
    new Promise((resolve, reject) => {
      http
        .request(url, { agent, method, headers }, (response) => {
          response.resume();
          response.once('end', () =>
            response.statusCode >= 200 && response.statusCode < 300
              ? resolve()
              : reject(new Error(`${method} ${url} answered ${response.statusCode}`)),
          );
        })
        .once('error', reject)
        .end(body);
    });
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (left > 0) {
          left -= 1;
          await one();
        }
      }),
    );
  } finally {
    agent.destroy();
  }
}

/**
 * Runs callgrind_control against a counted server. valgrind names its control pipes after the USER and
 * HOST of the process's environment (the service reads HOST as its listen address), so the control
 * program is given the same two.
 */
async function control(server, ...args) {
  const env = { ...process.env, USER: server.env.USER ?? '', HOST: server.env.HOST ?? '' };
  for (const name of ['USER', 'HOST']) if (server.env[name] === undefined) delete env[name];
  return (await run('callgrind_control', [...args, String(server.child.pid)], { env })).stdout;
}

/** Per-thread instruction counts since the last zero, from `callgrind_control -e Ir`. */
function threadCounts(text) {
  return [...text.matchAll(/^\s*Th\s*(\d+)\s+([\d,]+)\s*$/gm)].map((match) => ({
    thread: Number(match[1]),
    ir: Number(match[2].replaceAll(',', '')),
  }));
}

/**
 * Counts a server started under callgrind (`{ child, env }`, e.g. from startServer) answering
 * `target` (a URL, or `{ url, method, headers, body }`): the instructions per request of each batch,
 * main thread and all threads, and the medians of the batches. The server's instrumentation is left
 * off again, so that the next count can warm up at full speed.
 */
export async function countInstructions(server, target, settings = INSTRUCTION_SETTINGS) {
  const load = (count) => loadRequests(target, count, settings.connections);
  await load(settings.warmup);
  await control(server, '--instr=on');
  await load(settings.discard);
  const batches = [];
  for (let index = 0; index < settings.batches; index += 1) {
    await control(server, '--zero');
    await load(settings.batch);
    let text = await control(server, '-e', 'Ir');
    let counts = threadCounts(text);
    // An answer that names no thread (seen once, with four counted servers on two cores) is asked for again.
    if (counts.length === 0) counts = threadCounts((text = await control(server, '-e', 'Ir')));
    const main = counts.find((count) => count.thread === 1)?.ir;
    if (main === undefined) throw new Error(`callgrind_control printed no count for the main thread: ${text.slice(0, 300)}`);
    batches.push({ main: main / settings.batch, all: counts.reduce((sum, count) => sum + count.ir, 0) / settings.batch });
  }
  if (DUMP_DIR !== undefined) await dumpBatch(server, target, () => load(settings.batch), settings.batch);
  await control(server, '--instr=off');
  return { batches, main: median(batches.map((batch) => batch.main)), all: median(batches.map((batch) => batch.all)) };
}

/** BENCH_INSTRUCTIONS_DUMP: one more batch dumped, and its report written next to the dump. */
async function dumpBatch(server, target, load, requests) {
  const pid = server.child.pid;
  const before = new Set(readdirSync(DUMP_DIR));
  await control(server, '--zero');
  await load();
  await control(server, '--dump');
  // The main thread's file of the new dump: callgrind.<pid>.<dump>-01.
  const file = readdirSync(DUMP_DIR).find((name) => !before.has(name) && name.startsWith(`callgrind.${pid}.`) && name.endsWith('-01'));
  if (file === undefined) throw new Error(`callgrind wrote no dump for process ${pid} in ${DUMP_DIR}`);
  const { url, method = 'GET' } = typeof target === 'string' ? { url: target } : target;
  const lines = [`${method} ${url}`, ...reportDump(resolve(DUMP_DIR, file), requests, `/tmp/perf-${pid}.map`)];
  writeFileSync(resolve(DUMP_DIR, `${file}.txt`), `${lines.join('\n')}\n`);
  console.log(`  dumped: ${resolve(DUMP_DIR, file)} (report: ${file}.txt)`);
}
