// The Node flags the benchmarks start their other servers with (bare Fastify, the peers, the floor
// stages), so that they run as the service runs and the comparison is of code, not of V8's state:
// - the service's start flags (NODE_START_FLAGS: a young generation that stays at full size);
// - allocation-site pretenuring off, which the service sets on itself at start (no-pretenuring.ts);
// - V8's memory reducer off. A server of the benchmark waits, idle, while the other targets are
//   loaded; V8 then shrinks the idle process's heap, and once loaded again it collects far more
//   often. Counted: the same-answer peer of the JWKS row cost 65,000 instructions per request when
//   counted first and 105,000 when counted after waiting for the others (bare Fastify: 56,000 and
//   97,000); with the reducer off, 65,000 either way. The service itself kept its count after the
//   same wait (its own timers keep it from looking idle), so its flags are left as `npm start` sets them.
// - one of Node's tick objects kept alive from the start, as the service keeps one
//   (keep-tick-object-maps.ts, loaded with `--import`): without it, every full collection can cost a
//   long-lived server the maps of its tick objects, and after a few it runs some 35,000 instructions
//   per request slower for good (bare Fastify: 59,000 before twelve full collections, 92,000 after).
const ROOT = new URL('../', import.meta.url);

export async function otherServerFlags() {
  const { NODE_START_FLAGS, NO_PRETENURING_FLAG } = await import(new URL('dist/src/common/runtime/start-flags.js', ROOT).href);
  const keepTickObject = new URL('dist/src/common/runtime/keep-tick-object-maps.js', ROOT).href;
  return [...NODE_START_FLAGS, NO_PRETENURING_FLAG, '--no-memory-reducer', '--import', keepTickObject];
}
