import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const REQUEST_ID = Symbol('latchkey.requestId');

/**
 * Generated ids have a UUID's form: the first 20 hex digits of a random UUID drawn once per process
 * (its version and variant digits included), then a 48-bit counter. The counter keeps them unique
 * within the process, the 74 random bits across processes and restarts; a request id correlates
 * log lines and error bodies, it is no secret (callers may send their own). Cheaper per request than
 * `randomUUID()`, which also has to refill its random pool.
 */
const GENERATED_PREFIX = randomUUID().slice(0, 24);
const COUNTER_LIMIT = 2 ** 48;
let generated = 0;

function generateRequestId(): string {
  generated = (generated + 1) % COUNTER_LIMIT;
  return GENERATED_PREFIX + generated.toString(16).padStart(12, '0');
}

type WithRequestId = IncomingMessage & { [REQUEST_ID]?: string };

/** Takes the caller's `X-Request-Id` when it is a sane token, else makes one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && VALID_REQUEST_ID.test(given) ? given : generateRequestId();
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
