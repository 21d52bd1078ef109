/**
 * Node flags every launcher of the service passes on its command line (`npm start`, the Docker image, the
 * benchmarks, the tests that run the built entry point). They are the ones V8 reads only while it sets up
 * the heap, so the way the process sets its other V8 flags on itself (`v8.setFlagsFromString`, see
 * no-pretenuring.ts) comes too late for them, and NODE_OPTIONS refuses them.
 *
 * `--min-semi-space-size=16`: V8 shrinks the young generation, down to 1 MB per semi-space, whenever a
 * collection finds the allocation rate low (a quiet spell, a gap between bursts of traffic), and grows it
 * back only as objects survive collections, which a request's short-lived objects rarely do. So after
 * every quiet spell the service ran the next seconds of load with a young generation of 2-8 MB and
 * collected it four to five times as often (measured on the floor route: 207-248 against 57-85 ms of
 * young collections in the 5 s of load after 12 s of idle). 16 MB is V8's default maximum on 64-bit, so
 * the young generation stays at its full size; it costs about 10 MB of resident memory.
 */
export const NODE_START_FLAGS: readonly string[] = ['--min-semi-space-size=16'];

/**
 * V8's allocation-site pretenuring, which the service turns off on itself at start (no-pretenuring.ts
 * explains why). Here, free of that module's side effect, for the benchmarks, which start their other
 * servers with it on the command line.
 */
export const NO_PRETENURING_FLAG = '--no-allocation-site-pretenuring';

/** A warning naming the start flags this process was not given (they can only come on the command line). */
export function startFlagWarnings(execArgv: readonly string[] = process.execArgv): string[] {
  const missing = NODE_START_FLAGS.filter((flag) => !execArgv.includes(flag));
  if (missing.length === 0) return [];
  return [
    `node was started without ${missing.join(' ')}: the young generation shrinks after quiet spells and the next ` +
      `load pays for it in collections; start the service as \`node ${NODE_START_FLAGS.join(' ')} dist/src/main.js\``,
  ];
}
