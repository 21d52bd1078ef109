import { setFlagsFromString } from 'node:v8';
import { NO_PRETENURING_FLAG } from './start-flags.js';

/**
 * Turns off V8's allocation-site pretenuring for the process. With it on, V8 watches how many objects
 * of each allocation site survive a young-generation collection and, past a threshold, allocates that
 * site's objects directly in the old generation from then on. A server's per-request objects (the
 * request and reply, their headers, the promises and closures of a handler) are short-lived, but a
 * burst in which many of them survive one collection (a pause, a first compilation, a change of the
 * route being called) can get such a site tenured. Every request then leaves its objects in the old
 * generation, where only a full collection frees them, and each young collection scans the old objects
 * that point at young ones: measured in this service, young collections went from about 0.5 to 4-5 ms
 * each, the old generation grew by some 7 MB/s under load, and a Fastify route cost 33-42 instead of
 * 21-23 µs of CPU per request. Whether it happened depended on the order of earlier traffic, so the
 * same build ran at two speeds from one process to the next. Without pretenuring, objects reach the old
 * generation only by surviving two young collections; long-lived data built in bulk (caches, indexes)
 * is copied once more on its way there, a cost paid once.
 *
 * V8 reads the flag whenever a collection weighs the sites' survival, so setting it at run time takes
 * effect for everything allocated afterwards; bootstrap.ts imports this module before the framework
 * and the service's modules are evaluated, so no site of theirs is judged with it on. The benchmarks
 * start their other servers (bare Fastify, the peers) with the same flag on the command line.
 */
setFlagsFromString(NO_PRETENURING_FLAG);
