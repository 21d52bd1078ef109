import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const REQUEST_ID = Symbol('latchkey.requestId');

type WithRequestId = IncomingMessage & { [REQUEST_ID]?: string };

/**
 * Takes the caller's `X-Request-Id` when it is a sane token, else makes a random UUID. Not a counter,
 * though one would be cheaper (about 0.5 µs per request): ids are echoed to every caller, and
 * consecutive ids would tell anyone how many requests the service answered between two of theirs.
 */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && VALID_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Gives the request its id and puts it on the response as `X-Request-Id`, where Node keeps it for
 * whatever writes the response (Fastify's replies, its router errors, a raw write). Called by the
 * listeners for every request, before Fastify.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): void {
  const id = requestIdOf(req);
  (req as WithRequestId)[REQUEST_ID] = id;
  res.setHeader('x-request-id', id);
}

/** Fastify's `genReqId`: the id the listener assigned (a request that came another way gets one made here). */
export function assignedRequestIdOf(req: IncomingMessage): string {
  return (req as WithRequestId)[REQUEST_ID] ?? requestIdOf(req);
}
