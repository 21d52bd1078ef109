// The samples of a process's main thread in a `perf record` file that BENCH_PERF (bench/run.mjs) or
// bench/profiler-check.mjs wrote, for bench/perf-report.mjs and the check.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

/** Runs perf to its end, its output ignored; throws when it fails. */
async function runPerf(args) {
  const child = spawn('perf', args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const code = await new Promise((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`perf ${args.join(' ')} ended with ${code}`);
}

/**
 * Yields each main-thread sample of `file` as its frames, innermost first ("JS:*name file:line:col"
 * for JavaScript, the symbol otherwise). The service's JIT code record (jit-<pid>.dump, beside the
 * file) is turned into symbols once and kept as <file>.jit; the symbol files perf makes go into the
 * same folder's .debug, not the user's ~/.debug.
 */
export async function* mainThreadSamples(file) {
  const symbols = ['--buildid-dir', join(dirname(file), '.debug')];
  const injected = `${file}.jit`;
  if (!existsSync(injected) || statSync(injected).mtimeMs < statSync(file).mtimeMs)
    await runPerf([...symbols, 'inject', '--jit', '-i', file, '-o', injected]);
  // pid and tid head each sample; its frames follow, one per line, innermost first; a blank line ends it.
  const perf = spawn('perf', [...symbols, 'script', '-F', 'pid,tid,ip,sym', '-i', injected], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => perf.once('close', resolve));
  let main = false;
  let frames = [];
  for await (const line of createInterface({ input: perf.stdout, crlfDelay: Infinity })) {
    const head = /^\s*(\d+)\/(\d+)\s*$/.exec(line);
    if (line.trim() === '' || head !== null) {
      if (main && frames.length > 0) yield frames;
      frames = [];
      if (head !== null) main = head[1] === head[2];
      continue;
    }
    // "<address> <symbol>"; the symbol may hold spaces (C++ names, JS frames with their file).
    frames.push(line.trim().replace(/^[0-9a-f]+ /, ''));
  }
  if (main && frames.length > 0) yield frames;
  const code = await exited;
  if (code !== 0) throw new Error(`perf script -i ${file} ended with ${code}`);
}
