import type { FastifyInstance } from 'fastify';
import type { Histogram } from 'prom-client';
import { listenerOf } from './listener.js';

type Labels = 'method' | 'route' | 'status_code' | 'listener';
type Observer = { observe(value: number): void };

/**
 * Per-request plumbing: echo the request id, observe the duration histogram by route template, and
 * write one log line (only when `logRequests`). The line carries the path without its query string,
 * because queries carry codes, challenges and tokens. This runs on every request, so it avoids work:
 * histogram children are resolved once per label set, and no log object is built when lines are off.
 */
export function installRequestHooks(fastify: FastifyInstance, histogram: Histogram<Labels>, logRequests: boolean): void {
  const observers = new Map<string, Observer>();
  const observerFor = (method: string, route: string, status: number, listener: string): Observer => {
    const key = `${method} ${status} ${listener} ${route}`;
    let observer = observers.get(key);
    if (observer === undefined) {
      observer = histogram.labels({ method, route, status_code: status, listener });
      observers.set(key, observer);
    }
    return observer;
  };

  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const listener = listenerOf(request.raw) ?? 'unknown';
    observerFor(request.method, route, reply.statusCode, listener).observe(reply.elapsedTime / 1000);
    if (logRequests) {
      request.log.info(
        {
          reqId: request.id,
          method: request.method,
          path: request.url.split('?', 1)[0],
          route,
          listener,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 100) / 100,
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
