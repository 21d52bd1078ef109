import type { FastifyRequest } from 'fastify';
import { acceptsHtml } from '../../common/html/accepts-html.js';

/**
 * Requests that belong to a browser flow. Their errors are shown on the error UI (302 with
 * `?error=<container>`) when the client navigates (wants HTML), instead of a JSON error body.
 */
const browserRequests = new WeakSet<FastifyRequest>();

export function markBrowserRequest(request: FastifyRequest): void {
  browserRequests.add(request);
}

export function isBrowserRequest(request: FastifyRequest): boolean {
  return browserRequests.has(request);
}

/**
 * Whether a browser-flow client asked for JSON (a single-page app: `Accept: application/json` without
 * preferring HTML). Such clients get JSON answers where a navigating browser gets redirects.
 */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return accept !== undefined && /application\/json/i.test(accept) && !acceptsHtml(accept);
}
