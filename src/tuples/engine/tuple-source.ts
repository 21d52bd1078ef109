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

  /**
   * Optional, with `setsWithSubject`, for checks that remember the group graph (GroupMemo): the
   * subject sets among the direct subjects of each of `sets`, by `formatSubject` of the set as given
   * (every given set is in the map), in one round trip.
   */
  subjectSetsOf?(sets: readonly SubjectSet[]): Promise<ReadonlyMap<string, readonly SubjectSet[]>>;

  /**
   * Optional, with `subjectSetsOf`: the sets one of whose tuples has `target` itself as subject, in
   * one round trip; undefined when there are more than `limit`. Sets of unknown namespaces may be
   * left out: no check follows them.
   */
  setsWithSubject?(target: Subject, limit: number): Promise<readonly SubjectSet[] | undefined>;

  /** Every tuple of `sets`, in a stable order (object, relation, subject). */
  tuplesOf(sets: readonly SubjectSet[]): Promise<readonly RelationTuple[]>;
}

/**
 * The sets holding a target directly, as a check looks them up: `formatSubject` of each such set and
 * of its object's every-relation set (`ns:obj#`), so that both kinds of set are one lookup; `wide`
 * when the target is in more sets than a check keeps.
 */
export type TargetHolders = ReadonlySet<string> | 'wide';

/**
 * What checks remember of the group graph between requests. Nothing read before an invalidation may
 * be stored after it: a check takes `generation()` before its first read and passes it to every
 * `remember…`.
 */
export interface GroupMemo {
  generation(): number;
  /** The subject sets among the direct subjects of `set`, when remembered. */
  subjectSets(set: SubjectSet): readonly SubjectSet[] | undefined;
  rememberSubjectSets(set: SubjectSet, sets: readonly SubjectSet[], generation: number): void;
  /** The sets holding `target` directly, when remembered. */
  holdersOf(target: Subject): TargetHolders | undefined;
  rememberHoldersOf(target: Subject, holders: TargetHolders, generation: number): void;
}

/** Which namespaces exist: sets in others have no members. */
export interface NamespaceLookup {
  has(name: string): boolean;
}
