import { CommonErrors, type AppError } from '../../common/errors/app-error.js';
import type { TupleFields } from '../domain/tuple-syntax.js';

/**
 * Reading the check request by hand rather than through class-validator DTOs: on the cached check
 * path the global ValidationPipe cost about nine times the check itself (CPU profile, docs/tuples.md),
 * and the check is the hottest route of the service. The rules are the DTOs' (a string per field,
 * no unknown member, `max-depth` a whole number) and so are the errors (400 `invalid_request` naming
 * the field); lengths, characters and the subject syntax are the service's, as for every route.
 */
const TUPLE_KEYS = ['namespace', 'object', 'relation', 'subject'] as const;
const MAX_DEPTH = 'max-depth';
const WHOLE_NUMBER = /^-?\d{1,15}$/;

export interface CheckInput {
  readonly tuple: TupleFields;
  readonly maxDepth: number | undefined;
}

/** GET /check: the tuple and `max-depth` in the query string. */
export function readCheckQuery(query: unknown): CheckInput {
  const source = objectOf(query, 'The query string');
  onlyKeys(source, [...TUPLE_KEYS, MAX_DEPTH]);
  return { tuple: tupleOf(source), maxDepth: maxDepthOf(source[MAX_DEPTH]) };
}

/** POST /check: the tuple as a JSON body. */
export function readCheckBody(body: unknown): TupleFields {
  const source = objectOf(body, 'The request body');
  onlyKeys(source, TUPLE_KEYS);
  return tupleOf(source);
}

/** POST /check's query string: `max-depth` only. */
export function readMaxDepthQuery(query: unknown): number | undefined {
  const source = objectOf(query, 'The query string');
  onlyKeys(source, [MAX_DEPTH]);
  return maxDepthOf(source[MAX_DEPTH]);
}

function objectOf(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw CommonErrors.invalidRequest(`${what} must be an object with namespace, object, relation and subject.`);
  }
  return value as Record<string, unknown>;
}

function onlyKeys(source: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(source)) {
    if (!allowed.includes(key)) throw invalid(key, `property ${key} should not exist`);
  }
}

function tupleOf(source: Record<string, unknown>): TupleFields {
  for (const key of TUPLE_KEYS) {
    if (typeof source[key] !== 'string') throw invalid(key, `${key} must be a string`);
  }
  const { namespace, object, relation, subject } = source as unknown as TupleFields;
  return { namespace, object, relation, subject };
}

function maxDepthOf(raw: unknown): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !WHOLE_NUMBER.test(raw)) throw invalid(MAX_DEPTH, `${MAX_DEPTH} must be an integer number`);
  return Number(raw);
}

function invalid(field: string, message: string): AppError {
  return CommonErrors.invalidRequest(`${field}: ${message}`, { fields: { [field]: [message] } });
}
