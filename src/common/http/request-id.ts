import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders, ServerResponse } from 'node:http';

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const REQUEST_ID = Symbol('latchkey.requestId');
const REQUEST_ID_HEADER = 'x-request-id';

type WithRequestId = IncomingMessage & { [REQUEST_ID]?: string };

/**
 * Takes the caller's `X-Request-Id` when it is a sane token, else makes a random UUID. Not a counter,
 * though one would be cheaper (about 0.5 µs per request): ids are echoed to every caller, and
 * consecutive ids would tell anyone how many requests the service answered between two of theirs.
 */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && VALID_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * The request's id, made on first use and kept on the request: Fastify's `genReqId` (the `request.id`
 * of logs and error bodies) and the response's header (ResponseWithRequestId) read the same one.
 */
export function assignedRequestIdOf(req: IncomingMessage): string {
  return ((req as WithRequestId)[REQUEST_ID] ??= requestIdOf(req));
}

/**
 * The listeners' response class: every response carries `X-Request-Id` (Fastify's replies, its router
 * errors, a raw write, Node's implicit head), added as the head is written. Setting it earlier with
 * `setHeader` would send every Fastify reply down Node's merge path, which validates and stores each of
 * the reply's headers a second time (about 7,000 instructions per request, a tenth of a whole request);
 * adding it to a copy of the head's own headers keeps the single pass. The caller's object is never
 * changed (it may be shared), and a header the writer set itself, in any case, wins.
 */
export class ResponseWithRequestId<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  override writeHead(
    statusCode: number,
    reasonOrHeaders?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    const reason = typeof reasonOrHeaders === 'string' ? reasonOrHeaders : undefined;
    const given = reason === undefined ? (reasonOrHeaders as OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined) : headers;
    const id = assignedRequestIdOf(this.req);
    const own = this.hasHeader(REQUEST_ID_HEADER) || namesRequestId(given);
    if (given !== undefined && given !== null && !Array.isArray(given) && !own) {
      // A literal name, not the constant as a computed key: a literal name's map comes from the
      // literal's boilerplate, which V8 keeps; a computed key's is made as the object is built and, as
      // with the tick objects (keep-tick-object-maps.ts), can be freed and rebuilt until V8 falls back
      // to its runtime for every object of the site. This runs for nearly every response.
      const withId = { 'x-request-id': id, ...given };
      return reason === undefined ? super.writeHead(statusCode, withId) : super.writeHead(statusCode, reason, withId);
    }
    // A head from an array, or after setHeader: the merge path runs anyway; the header joins it there.
    if (!own) this.setHeader(REQUEST_ID_HEADER, id);
    return reason === undefined ? super.writeHead(statusCode, given) : super.writeHead(statusCode, reason, given);
  }
}

/** Whether a head (`{ name: value }` or flat `[name, value, ...]`) names X-Request-Id, in any case. */
function namesRequestId(head: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined | null): boolean {
  if (head === undefined || head === null) return false;
  const isId = (name: unknown): boolean =>
    typeof name === 'string' && name.length === REQUEST_ID_HEADER.length && name.toLowerCase() === REQUEST_ID_HEADER;
  if (Array.isArray(head)) {
    for (let index = 0; index < head.length; index += 2) if (isId(head[index])) return true;
    return false;
  }
  for (const name in head) if (isId(name)) return true;
  return false;
}
