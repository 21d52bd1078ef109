import type { FastifyInstance } from 'fastify';
import { CommonErrors } from '../errors/app-error.js';
import { ErrorFamily, familyOf } from '../errors/error-family.js';
import { sendError } from '../errors/error-response.js';
import { listenerOf } from './listener.js';

/** Deeper JSON than this is no input of ours (identity traits, claims and metadata stay far below it). */
export const MAX_INPUT_DEPTH = 128;

/** A lone surrogate (not text: PostgreSQL refuses it) or NUL (PostgreSQL cannot store it in text). */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const UNSTORABLE = /\p{Cs}|\u0000/u;

/**
 * What is wrong with a parsed body or query, or undefined when nothing is: a string
 * (value or member name) holding a lone surrogate or NUL, or nesting deeper than MAX_INPUT_DEPTH.
 * Walked with an explicit stack, so a 10,000-level document costs a loop, not the call stack.
 */
export function inputProblem(input: unknown, checkStrings = true): string | undefined {
  // Two parallel stacks rather than a stack of pairs: this runs on every request with a body or query.
  const values: unknown[] = [input];
  const depths: number[] = [0];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (typeof value === 'string') {
      if (checkStrings && UNSTORABLE.test(value)) return 'holds a NUL character or a lone UTF-16 surrogate';
    } else if (isParsedContainer(value)) {
      if (depth >= MAX_INPUT_DEPTH) return `is nested deeper than ${MAX_INPUT_DEPTH} levels`;
      if (Array.isArray(value)) {
        for (const inner of value) {
          values.push(inner);
          depths.push(depth + 1);
        }
        continue;
      }
      const record = value as Record<string, unknown>;
      for (const key in record) {
        if (!Object.hasOwn(record, key)) continue;
        if (checkStrings && UNSTORABLE.test(key)) return 'holds a NUL character or a lone UTF-16 surrogate';
        values.push(record[key]);
        depths.push(depth + 1);
      }
    }
  }
  return undefined;
}

/**
 * Refuses, before any handler runs, input that no handler can store or walk: NUL and lone surrogates
 * in the body or the query (PostgreSQL rejects them, which surfaced as 500s), and
 * bodies nested deeper than MAX_INPUT_DEPTH (handlers and PostgreSQL recurse over them). The answer is
 * a 400 `invalid_request` in the shape of the family that owns the path, and nothing runs or is written.
 * The access services (tuples, policies) validate every string themselves and answer their own codes
 * (`invalid_relation_tuple`, `malformed_subject`, ...), so only the depth is checked for them here.
 */
export function installInputGuard(fastify: FastifyInstance, exposeInternal: boolean): void {
  fastify.addHook('preValidation', (request, reply, done) => {
    const body = request.body;
    const query = hasEscapes(request.url) ? request.query : undefined;
    // Most hot requests (whoami, check, discovery) carry no body and no query to check: skip the family lookup for them.
    if (!hasMembers(body) && !hasMembers(query)) {
      done();
      return;
    }
    // Strings are checked first, for every family: input that passes that passes the depth-only check too,
    // so the family (a walk over path prefixes) is looked up only for input that failed.
    let found = partWithProblem(body, query, true);
    if (found !== undefined && familyOf(listenerOf(request.raw), request.url.split('?', 1)[0] ?? '/') === ErrorFamily.Access) {
      found = partWithProblem(body, query, false);
    }
    if (found !== undefined) {
      const [part, problem] = found;
      sendError(request, reply, CommonErrors.invalidRequest(`The request ${part} ${problem}.`, { part }), exposeInternal);
      return;
    }
    done();
  });
}

/**
 * Whether the URL's query string holds a percent-escape. One without cannot decode to NUL or a lone
 * surrogate: Node's HTTP parser refuses a request target with control characters or any byte above
 * 0x7E, and the query parser builds flat string values, nothing nested. So such a query, the common
 * case on hot routes, is not walked.
 */
function hasEscapes(url: string): boolean {
  const start = url.indexOf('?');
  return start !== -1 && url.indexOf('%', start + 1) !== -1;
}

/** The first of body and query that has a problem, with the problem; undefined when neither has. */
function partWithProblem(body: unknown, query: unknown, checkStrings: boolean): readonly ['body' | 'query', string] | undefined {
  const bodyProblem = inputProblem(body, checkStrings);
  if (bodyProblem !== undefined) return ['body', bodyProblem];
  const queryProblem = inputProblem(query, checkStrings);
  return queryProblem === undefined ? undefined : ['query', queryProblem];
}

/**
 * What a body or query parser built (objects and arrays) is walked; a route that takes its body as a
 * stream or as bytes (the proxy, the decision API, the webhook receiver) has nothing nested to check.
 */
function isParsedContainer(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  if (ArrayBuffer.isView(value)) return false;
  return typeof (value as { pipe?: unknown }).pipe !== 'function';
}

/** Whether there is anything to walk: a string body, or a parsed container with at least one member. */
function hasMembers(input: unknown): boolean {
  if (typeof input === 'string') return input.length > 0;
  if (!isParsedContainer(input)) return false;
  for (const _ in input) return true;
  return false;
}
