import { formatSubject, isSubjectSet, type RelationTuple, type SubjectSet } from '../domain/relation-tuple.js';
import type { NamespaceLookup, TupleSource } from './tuple-source.js';

export interface CheckLimits {
  /**
   * How many distinct subject sets one check may visit. Past it the check answers false, as for the
   * depth limit: the cost of one request stays bounded however wide the graph.
   */
  readonly maxVisitedSets: number;
}

export const DEFAULT_CHECK_LIMITS: CheckLimits = { maxVisitedSets: 10_000 };

/**
 * Is `tuple.subject` in the subject set `tuple.namespace:object#relation`, directly or through
 * subject sets? Breadth-first: level d holds the sets reached through d-1 indirections, and the whole
 * level is read in one call to the source. A set is visited once (cycles end there), and a path may
 * use at most `maxDepth` tuples (1 = the tuple itself must exist). A namespace that does not exist
 * has no members, so the answer is false rather than an error (Keto v0.6). A source that can walk
 * the whole graph in one round trip (`reaches`) answers first; the level walk remains for what it
 * leaves open (a graph wider than the visited-set budget) and for sources without it.
 */
export class CheckEngine {
  constructor(
    private readonly source: TupleSource,
    private readonly namespaces: NamespaceLookup,
    private readonly limits: CheckLimits = DEFAULT_CHECK_LIMITS,
  ) {}

  async check(tuple: RelationTuple, maxDepth: number): Promise<boolean> {
    if (!this.namespaces.has(tuple.namespace)) return false;
    const target = formatSubject(tuple.subject);
    const start: SubjectSet = { namespace: tuple.namespace, object: tuple.object, relation: tuple.relation };
    if (maxDepth < 1) return false;
    const answer = await this.source.reaches?.(start, tuple.subject, maxDepth, this.limits.maxVisitedSets);
    if (answer !== undefined) return answer;
    const visited = new Set<string>([formatSubject(start)]);
    let level: SubjectSet[] = [start];
    for (let depth = 1; depth <= maxDepth && level.length > 0; depth += 1) {
      const subjects = await this.source.subjectsForCheck(level, tuple.subject, depth < maxDepth);
      const next: SubjectSet[] = [];
      let exhausted = false;
      for (const subject of subjects) {
        const key = formatSubject(subject);
        if (key === target) return true;
        if (!isSubjectSet(subject) || visited.has(key) || !this.namespaces.has(subject.namespace)) continue;
        if (visited.size >= this.limits.maxVisitedSets) exhausted = true;
        else {
          visited.add(key);
          next.push(subject);
        }
      }
      if (exhausted) return false;
      level = next;
    }
    return false;
  }
}
