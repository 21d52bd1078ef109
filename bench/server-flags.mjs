// The Node flags the benchmarks start their other servers with (bare Fastify, the peers, the floor
// stages), so that they run as the service runs and the comparison is of code, not of V8's state:
// - the service's start flags (NODE_START_FLAGS: a young generation that stays at full size);
// - allocation-site pretenuring off, which the service sets on itself at start (no-pretenuring.ts);
// - one of Node's tick objects kept alive from the start, as the service keeps one
//   (keep-tick-object-maps.ts, loaded with `--import`): without it, a full collection can cost a
//   long-lived server the maps of its tick objects, and after a few it runs some 35,000 instructions
//   per request slower for good (bare Fastify: 59,000 before twelve full collections, 92,000 after);
// - V8's memory reducer off. A server of the benchmark waits, idle, while the other targets are
//   loaded, and the reducer's collections, which keep no maps, were what cost the idle servers
//   their tick objects' maps (counted: the JWKS row's same-answer peer at 65,000 instructions per
//   request when counted first, 105,000 after waiting). With the tick object kept that no longer
//   happens (bare Fastify after three idle spells with the reducer on: 57,300); it stays off so
//   that the servers run as they were measured since. The service keeps `npm start`'s flags.
const ROOT = new URL('../', import.meta.url);

export async function otherServerFlags() {
  const { NODE_START_FLAGS, NO_PRETENURING_FLAG } = await import(new URL('dist/src/common/runtime/start-flags.js', ROOT).href);
  const keepTickObject = new URL('dist/src/common/runtime/keep-tick-object-maps.js', ROOT).href;
  return [...NODE_START_FLAGS, NO_PRETENURING_FLAG, '--no-memory-reducer', '--import', keepTickObject];
}
