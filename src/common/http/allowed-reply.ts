import type { FastifyReply } from 'fastify';

const ALLOWED = '{"allowed":true}';
const DENIED = '{"allowed":false}';

/**
 * Keto's answer to a check or an ACP `allowed` request: 200 `{"allowed":true}` or 403
 * `{"allowed":false}`, the result mirrored in the status (a denial is not an error body). Both bodies
 * are fixed strings: these are the hottest admin routes, and nothing is serialised per request.
 */
export function sendAllowed(reply: FastifyReply, allowed: boolean): FastifyReply {
  return reply
    .status(allowed ? 200 : 403)
    .header('content-type', 'application/json; charset=utf-8')
    .send(allowed ? ALLOWED : DENIED);
}
