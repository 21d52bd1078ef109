import { createHook } from 'node:async_hooks';

/**
 * Keeps one of Node's tick objects (what `process.nextTick` queues; several per request, from the
 * streams and the HTTP server) alive for the life of the process.
 *
 * Node 20 builds each tick object as an object literal with two computed symbol keys. V8 steps such an
 * object through a chain of maps (hidden classes), one per key added, and holds each map only weakly
 * from the one before it: a full collection that finds no tick object alive, which between requests
 * is nearly always, frees the chain, and the next tick object builds a new one. Full collections come
 * with growth and bulk loads, and with V8's memory reducer after every idle spell (its collections
 * keep no maps at all, whatever `--retain-maps-for-n-gc` says). Each new chain is one more map for
 * the compiled code that builds and reads tick objects; after a few, V8 gives up on that code's
 * shortcuts for good, and from then on every tick object's keys are added by V8's runtime with a map
 * migration, about 7,700 instructions per `nextTick`. Counted: bare Fastify went from 59,000 to
 * 92,000 instructions per request after twelve full collections, this service's cached tuple check
 * from 110,000 to 145,000 after its boot and a bulk load, and bare Fastify from 58,000 to 91,000
 * after 40 s idle, for the rest of the process's life; whether and when it happened depended on when
 * full collections fell, so one build ran at two speeds.
 *
 * A map is kept by any object that has it, and each map keeps the maps before it, so one tick object
 * kept keeps the whole chain and the transitions into it. The hook that catches it is on only for the
 * one synchronous `nextTick` below; it is imported before the framework, so before most collections.
 */
const kept: object[] = [];

const hook = createHook({
  init(_asyncId, type, _triggerAsyncId, resource) {
    if (type === 'TickObject' && kept.length === 0) kept.push(resource);
  },
});
hook.enable();
process.nextTick(() => undefined);
hook.disable();

/** The tick object kept (undefined only if Node stopped reporting tick objects to async hooks). */
export function keptTickObject(): object | undefined {
  return kept[0];
}
