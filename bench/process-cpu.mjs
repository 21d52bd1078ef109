// The CPU a process has used, for the scripts that load one server and count its CPU per request
// (bench/calibrate.mjs, bench/profiler-check.mjs; bench/run.mjs keeps its own, with threads and children).
import { readFileSync } from 'node:fs';

/** The process's user + system CPU so far, in µs (Linux /proc; clock ticks of 10 ms). */
export function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
