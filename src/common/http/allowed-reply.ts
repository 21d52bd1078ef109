import type { FastifyReply } from 'fastify';

const ALLOWED = '{"allowed":true}';
const DENIED = '{"allowed":false}';

/**
 * Keto's answer to a check or an ACP `allowed` request: 200 `{"allowed":true}` or 403
 * `{"allowed":false}`, the result mirrored in the status (a denial is not an error body). Both bodies
 * are fixed strings: these are the hottest admin routes, and nothing is serialised per request.
 */
function sendAllowed(reply: FastifyReply, allowed: boolean): FastifyReply {
  return reply
    .status(allowed ? 200 : 403)
    .header('content-type', 'application/json; charset=utf-8')
    .send(allowed ? ALLOWED : DENIED);
}

/**
 * A plain route handler's answer for a decision that may already be known: sent at once, the handler
 * returning nothing (no promise made: an async handler costs a few promise jobs per request), or sent
 * when it is known, the handler returning that promise so that a failure reaches the route's error handler.
 */
export function answerAllowed(reply: FastifyReply, allowed: boolean | Promise<boolean>): Promise<void> | undefined {
  if (typeof allowed === 'boolean') {
    sendAllowed(reply, allowed);
    return undefined;
  }
  return allowed.then((known) => void sendAllowed(reply, known));
}
