import type { FastifyReply, FastifyRequest } from 'fastify';
import { paginationLinkHeader } from './link-header.js';
import type { Page } from './page.js';

/**
 * Sets `Link` and `X-Total-Count` on a list response. The links use the URL the caller sent
 * (`/admin/clients` stays `/admin/clients`), so they work through the same prefix.
 */
export function setPaginationHeaders(request: FastifyRequest, reply: FastifyReply, page: Page, total: number): void {
  void reply.header('link', paginationLinkHeader(request.originalUrl, page, total)).header('x-total-count', String(total));
}
