import type { FastifyInstance } from 'fastify';
import type { Histogram } from 'prom-client';
import { listenerOf } from './listener.js';

/**
 * Per-request plumbing: echo the request id, observe the duration histogram by route template, and
 * write one log line. The line carries the path without its query string, because queries carry
 * codes, challenges and tokens.
 */
export function installRequestHooks(fastify: FastifyInstance, histogram: Histogram<'method' | 'route' | 'status_code' | 'listener'>): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const listener = listenerOf(request.raw) ?? 'unknown';
    const seconds = reply.elapsedTime / 1000;
    histogram.observe({ method: request.method, route, status_code: reply.statusCode, listener }, seconds);
    request.log.info(
      {
        method: request.method,
        path: request.url.split('?', 1)[0],
        route,
        listener,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request',
    );
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
