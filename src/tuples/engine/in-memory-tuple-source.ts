import { formatSubject, isSubjectSet, type RelationTuple, type Subject, type SubjectSet } from '../domain/relation-tuple.js';
import { parseSubject } from '../domain/tuple-syntax.js';
import type { TupleSource } from './tuple-source.js';

/**
 * A TupleSource over a list, for the engine specs: tuples are written as `ns:obj#rel@subject`, and
 * every call is recorded so a spec can count round trips.
 */
export class InMemoryTupleSource implements TupleSource {
  readonly calls: Array<{
    method: 'subjectsForCheck' | 'subjectSetsOf' | 'setsWithSubject' | 'tuplesOf';
    sets: readonly SubjectSet[];
  }> = [];
  private readonly tuples: RelationTuple[];

  constructor(lines: readonly string[]) {
    this.tuples = lines.map(parseTupleText).sort(byKey);
  }

  async subjectsForCheck(sets: readonly SubjectSet[], target: Subject, withSets: boolean): Promise<readonly Subject[]> {
    this.calls.push({ method: 'subjectsForCheck', sets });
    const wanted = formatSubject(target);
    return this.matching(sets)
      .map((tuple) => tuple.subject)
      .filter((subject) => formatSubject(subject) === wanted || (withSets && isSubjectSet(subject)));
  }

  async subjectSetsOf(sets: readonly SubjectSet[]): Promise<ReadonlyMap<string, readonly SubjectSet[]>> {
    this.calls.push({ method: 'subjectSetsOf', sets });
    return new Map(
      sets.map((set) => [
        formatSubject(set),
        this.matching([set])
          .map((tuple) => tuple.subject)
          .filter(isSubjectSet),
      ]),
    );
  }

  async setsWithSubject(target: Subject, limit: number): Promise<readonly SubjectSet[] | undefined> {
    this.calls.push({ method: 'setsWithSubject', sets: [] });
    const wanted = formatSubject(target);
    const holding = this.tuples.filter((tuple) => formatSubject(tuple.subject) === wanted);
    return holding.length > limit ? undefined : holding.map(({ namespace, object, relation }) => ({ namespace, object, relation }));
  }

  async tuplesOf(sets: readonly SubjectSet[]): Promise<readonly RelationTuple[]> {
    this.calls.push({ method: 'tuplesOf', sets });
    return this.matching(sets);
  }

  private matching(sets: readonly SubjectSet[]): RelationTuple[] {
    return this.tuples.filter((tuple) =>
      sets.some(
        (set) =>
          set.namespace === tuple.namespace && set.object === tuple.object && (set.relation === '' || set.relation === tuple.relation),
      ),
    );
  }
}

/** `ns:obj#rel@subject`; the subject is everything after the first `@` (ids may hold `@`). */
export function parseTupleText(text: string): RelationTuple {
  const at = text.indexOf('@');
  const set = at < 0 ? undefined : parseSubject(text.slice(0, at), 'tuple');
  if (set === undefined || !isSubjectSet(set)) throw new Error(`not a tuple: ${text}`);
  return { ...set, subject: parseSubject(text.slice(at + 1), 'subject') };
}

function byKey(a: RelationTuple, b: RelationTuple): number {
  const left = [a.namespace, a.object, a.relation, formatSubject(a.subject)];
  const right = [b.namespace, b.object, b.relation, formatSubject(b.subject)];
  for (let i = 0; i < left.length; i += 1) {
    if (left[i]! < right[i]!) return -1;
    if (left[i]! > right[i]!) return 1;
  }
  return 0;
}
