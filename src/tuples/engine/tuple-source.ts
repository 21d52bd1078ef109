import type { RelationTuple, Subject, SubjectSet } from '../domain/relation-tuple.js';

/**
 * Where the engines read tuples from: the database in the service, a list in the engine specs. Each
 * call is meant to be one round trip for all the given sets (one indexed query per BFS level). In
 * every call a set with an empty relation stands for every relation of its object.
 */
export interface TupleSource {
  /**
   * The direct subjects of `sets` that equal `target`, plus, when `withSets`, those that are subject
   * sets. Subjects that are neither are never needed by a check, so they need not be read.
   */
  subjectsForCheck(sets: readonly SubjectSet[], target: Subject, withSets: boolean): Promise<readonly Subject[]>;

  /**
   * Optional: the whole check in one round trip. Whether `target` is a subject of `start` through at
   * most `maxDepth` tuples (1 = the tuple itself), following subject sets of known namespaces only;
   * undefined when the source met about `maxVisitedSets` sets before an answer, and the engine then
   * walks level by level with `subjectsForCheck`, which applies that limit exactly.
   */
  reaches?(start: SubjectSet, target: Subject, maxDepth: number, maxVisitedSets: number): Promise<boolean | undefined>;

  /** Every tuple of `sets`, in a stable order (object, relation, subject). */
  tuplesOf(sets: readonly SubjectSet[]): Promise<readonly RelationTuple[]>;
}

/** Which namespaces exist: sets in others have no members. */
export interface NamespaceLookup {
  has(name: string): boolean;
}
