import type { FastifyInstance } from 'fastify';
import type { HttpDurationHistogram } from '../../metrics/http-metrics.js';
import { listenerOf } from './listener.js';

/**
 * Per-request plumbing: observe the duration histogram by route template, and write one log line
 * (only when `logRequests`). The line carries the path without its query string, because queries
 * carry codes, challenges and tokens. This runs on every request, so it avoids work: no log object is
 * built when lines are off, and the histogram only adds to the counts of its series. The
 * `X-Request-Id` header is set by the listeners (http-listeners.ts), before Fastify, which costs no
 * hook and covers every response, router errors included.
 */
export function installRequestHooks(fastify: FastifyInstance, histogram: HttpDurationHistogram, logRequests: boolean): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const listener = listenerOf(request.raw) ?? 'unknown';
    const elapsedMs = reply.elapsedTime;
    histogram.seriesFor(request.method, route, reply.statusCode, listener).observe(elapsedMs / 1000);
    if (logRequests) {
      request.log.info(
        {
          reqId: request.id,
          method: request.method,
          path: request.url.split('?', 1)[0],
          route,
          listener,
          status: reply.statusCode,
          ms: Math.round(elapsedMs * 100) / 100,
        },
        'request',
      );
    }
    done();
  });
}

/**
 * Bodies are JSON (and form-encoded where OAuth2 says so, parsed by Nest's adapter). Fastify's default
 * text/plain parser would hand strings to JSON handlers; without it such bodies get a 415.
 */
export function restrictBodyParsers(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('text/plain');
}
