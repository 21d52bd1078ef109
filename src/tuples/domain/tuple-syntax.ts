import { TuplesError } from '../tuples.errors.js';
import type { RelationTuple, Subject, SubjectSet } from './relation-tuple.js';

/** Keto's column sizes: object and relation 64 characters, subject 256. Namespace names as objects. */
export const MAX_NAME_LENGTH = 64;
export const MAX_SUBJECT_ID_LENGTH = 256;

/** Control characters (NUL, CR, LF, ...) and lone surrogates: never part of a name or subject. */
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/u;
/** The separators of `namespace:object#relation@subject`. */
const SEPARATORS = /[:#@]/;
const WHITESPACE = /\s/u;

/** The four strings of a tuple as a request carries them. */
export interface TupleFields {
  readonly namespace: string;
  readonly object: string;
  readonly relation: string;
  readonly subject: string;
}

/** Checks a namespace name's syntax; whether it is configured is the registry's business. */
export function checkNamespace(value: string, field: string): string {
  const problem = namespaceProblem(value);
  if (problem !== undefined) throw TuplesError.invalid(field, problem);
  return value;
}

export function checkObject(value: string, field: string): string {
  const problem = nameProblem(value, false);
  if (problem !== undefined) throw TuplesError.invalid(field, problem);
  return value;
}

export function checkRelation(value: string, field: string): string {
  return checkObject(value, field);
}

/**
 * A subject string (Keto v0.6 `SubjectFromString`): with a `#` it is a subject set and must read
 * `namespace:object#relation` with exactly one `:` and one `#` (the relation may be empty); without,
 * it is a subject id, kept verbatim.
 */
export function parseSubject(text: string, field: string): Subject {
  if (text === '') throw TuplesError.malformedSubject(field, 'must not be empty.');
  if (UNPRINTABLE.test(text)) throw TuplesError.malformedSubject(field, 'must not contain control characters.');
  if (!text.includes('#')) {
    if (characters(text) > MAX_SUBJECT_ID_LENGTH) {
      throw TuplesError.malformedSubject(field, `a subject id must be at most ${MAX_SUBJECT_ID_LENGTH} characters long.`);
    }
    return { id: text };
  }
  const halves = text.split('#');
  const sides = halves[0]!.split(':');
  if (halves.length !== 2 || sides.length !== 2) {
    throw TuplesError.malformedSubject(field, 'a subject set must read namespace:object#relation.');
  }
  const set: SubjectSet = { namespace: sides[0]!, object: sides[1]!, relation: halves[1]! };
  const problems: Array<[string, string | undefined]> = [
    ['namespace', namespaceProblem(set.namespace)],
    ['object', nameProblem(set.object, false)],
    ['relation', nameProblem(set.relation, true)],
  ];
  for (const [part, problem] of problems) {
    if (problem !== undefined) throw TuplesError.malformedSubject(field, `the ${part} of a subject set ${problem}`);
  }
  return set;
}

/** A whole tuple; `prefix` locates it in the request (`[2].relation_tuple.`) for error messages. */
export function parseTuple(fields: TupleFields, prefix = ''): RelationTuple {
  return {
    namespace: checkNamespace(fields.namespace, `${prefix}namespace`),
    object: checkObject(fields.object, `${prefix}object`),
    relation: checkRelation(fields.relation, `${prefix}relation`),
    subject: parseSubject(fields.subject, `${prefix}subject`),
  };
}

function namespaceProblem(value: string): string | undefined {
  return nameProblem(value, false) ?? (WHITESPACE.test(value) ? 'must not contain whitespace.' : undefined);
}

function nameProblem(value: string, allowEmpty: boolean): string | undefined {
  if (value === '') return allowEmpty ? undefined : 'must not be empty.';
  if (characters(value) > MAX_NAME_LENGTH) return `must be at most ${MAX_NAME_LENGTH} characters long.`;
  if (UNPRINTABLE.test(value)) return 'must not contain control characters.';
  if (SEPARATORS.test(value)) return 'must not contain any of : # @.';
  return undefined;
}

/** Length in characters (code points), as PostgreSQL counts them; cheap for the usual short strings. */
function characters(value: string): number {
  if (value.length <= MAX_NAME_LENGTH) return value.length;
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}
