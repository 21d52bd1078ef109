import type { FastifyRequest } from 'fastify';

/**
 * Requests that belong to a browser flow (FlowResponder marks them when a flow said so). Their errors
 * are shown on the error UI (302 with `?error=<container>`) when the client navigates (wants HTML),
 * instead of a JSON error body.
 */
const browserRequests = new WeakSet<FastifyRequest>();

export function markBrowserRequest(request: FastifyRequest): void {
  browserRequests.add(request);
}

export function isBrowserRequest(request: FastifyRequest): boolean {
  return browserRequests.has(request);
}
