import type { FastifyInstance } from 'fastify';

/** The methods the decision API and the proxy pass on (Fastify's own list, without WebDAV's). */
export const PASS_THROUGH_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'] as const;

/**
 * Registers routes in a Fastify scope that parses no body: whatever its type, a body stays the raw
 * stream, so the proxy streams it to the upstream untouched and the decision API (which reads none)
 * never answers 415 or 400 for a body it was only asked to judge the request of.
 */
export function withRawBodies(fastify: FastifyInstance, routes: (scope: FastifyInstance) => void): void {
  void fastify.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, parsed) => parsed(null, payload));
    routes(scope);
    done();
  });
}
