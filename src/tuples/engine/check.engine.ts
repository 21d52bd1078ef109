import { formatSubject, isSubjectSet, type RelationTuple, type Subject, type SubjectSet } from '../domain/relation-tuple.js';
import type { GroupMemo, NamespaceLookup, TargetHolders, TupleSource } from './tuple-source.js';

export interface CheckLimits {
  /**
   * How many distinct subject sets one check may visit. Past it the check answers false, as for the
   * depth limit: the cost of one request stays bounded however wide the graph.
   */
  readonly maxVisitedSets: number;
  /**
   * The longest list of sets the group memo keeps: the subject sets of one set, or the sets holding
   * one target. A longer one is read again by each check that needs it, so that a few very wide
   * groups or very popular subjects cannot fill the memo's memory.
   */
  readonly maxRememberedSets: number;
}

export const DEFAULT_CHECK_LIMITS: CheckLimits = { maxVisitedSets: 10_000, maxRememberedSets: 100 };

/** A source that can fill the group memo. */
type MemoSource = TupleSource & Required<Pick<TupleSource, 'subjectSetsOf' | 'setsWithSubject'>>;

/** The group memo and the source that fills it. */
interface Memory {
  readonly memo: GroupMemo;
  readonly source: MemoSource;
  /** Taken before the check's first read. */
  readonly generation: number;
}

/**
 * Is `tuple.subject` in the subject set `tuple.namespace:object#relation`, directly or through
 * subject sets? Breadth-first: level d holds the sets reached through d-1 indirections. A set is
 * visited once (cycles end there), and a path may use at most `maxDepth` tuples (1 = the tuple itself
 * must exist). A namespace that does not exist has no members, so the answer is false rather than an
 * error (Keto v0.6).
 *
 * Three ways to walk, one answer. With a group memo, only the checked set's own subjects are read
 * (checked objects are many and cold; the groups below them are few and hot) and the levels below are
 * walked in memory: a set of level d holds the target when it is among the target's remembered
 * holders, and its subject sets make level d+1; whatever the memo lacks is read one statement per
 * level and remembered. Without one, a source that can walk the whole graph in one round trip
 * (`reaches`) answers first, and the plain level walk, one read per level, remains for what it leaves
 * open (a graph wider than the visited-set budget) and for sources without it.
 */
export class CheckEngine {
  private readonly memoSource: MemoSource | undefined;

  /** With `memo`, checks remember the group graph, if the source can fill it (see the class comment). */
  constructor(
    private readonly source: TupleSource,
    private readonly namespaces: NamespaceLookup,
    private readonly limits: CheckLimits = DEFAULT_CHECK_LIMITS,
    private readonly memo?: GroupMemo,
  ) {
    this.memoSource = canFillMemo(source) ? source : undefined;
  }

  async check(tuple: RelationTuple, maxDepth: number): Promise<boolean> {
    if (!this.namespaces.has(tuple.namespace)) return false;
    const start: SubjectSet = { namespace: tuple.namespace, object: tuple.object, relation: tuple.relation };
    if (maxDepth < 1) return false;
    if (this.memo !== undefined && this.memoSource !== undefined) {
      const memory = { memo: this.memo, source: this.memoSource, generation: this.memo.generation() };
      return this.walkRemembered(start, tuple.subject, maxDepth, memory);
    }
    const answer = await this.source.reaches?.(start, tuple.subject, maxDepth, this.limits.maxVisitedSets);
    if (answer !== undefined) return answer;
    return this.walkLevels(start, tuple.subject, maxDepth);
  }

  /** One read per level: the level's subjects that are the target, and its subject sets while the path may grow. */
  private async walkLevels(start: SubjectSet, target: Subject, maxDepth: number): Promise<boolean> {
    const targetKey = formatSubject(target);
    const visited = new Set<string>([formatSubject(start)]);
    let level: SubjectSet[] | undefined = [start];
    for (let depth = 1; depth <= maxDepth && level.length > 0; depth += 1) {
      const subjects = await this.source.subjectsForCheck(level, target, depth < maxDepth);
      if (subjects.some((subject) => formatSubject(subject) === targetKey)) return true;
      level = this.admit(subjects, visited);
      if (level === undefined) return false;
    }
    return false;
  }

  /**
   * The level walk with levels 2 and below in memory where the memo allows: the same levels, the same
   * budget, the same answer (the engine spec compares the two on random graphs).
   */
  private async walkRemembered(start: SubjectSet, target: Subject, maxDepth: number, memory: Memory): Promise<boolean> {
    const targetKey = formatSubject(target);
    const visited = new Set<string>([formatSubject(start)]);
    const own = await this.source.subjectsForCheck([start], target, maxDepth > 1);
    if (own.some((subject) => formatSubject(subject) === targetKey)) return true;
    let level = this.admit(own, visited);
    let holders: TargetHolders | undefined;
    for (let depth = 2; depth <= maxDepth && level !== undefined && level.length > 0; depth += 1) {
      holders ??= await this.holdersOf(target, memory);
      if (await this.holdsTarget(level, target, holders)) return true;
      if (depth === maxDepth) return false;
      level = this.admit(await this.subjectSetsOf(level, memory), visited);
    }
    return false;
  }

  private async holdersOf(target: Subject, { memo, source, generation }: Memory): Promise<TargetHolders> {
    const remembered = memo.holdersOf(target);
    if (remembered !== undefined) return remembered;
    const sets = await source.setsWithSubject(target, this.limits.maxRememberedSets);
    const holders: TargetHolders = sets === undefined ? 'wide' : holderKeys(sets);
    memo.rememberHoldersOf(target, holders, generation);
    return holders;
  }

  /** Whether a set of `level` has the target as a direct subject; a target in too many sets is probed for. */
  private async holdsTarget(level: readonly SubjectSet[], target: Subject, holders: TargetHolders): Promise<boolean> {
    if (holders === 'wide') return (await this.source.subjectsForCheck(level, target, false)).length > 0;
    return level.some((set) => holders.has(formatSubject(set)));
  }

  /** The subject sets of every set of `level`: remembered ones from the memo, the others in one read. */
  private async subjectSetsOf(level: readonly SubjectSet[], { memo, source, generation }: Memory): Promise<SubjectSet[]> {
    const found: SubjectSet[] = [];
    const missed: SubjectSet[] = [];
    for (const set of level) {
      const remembered = memo.subjectSets(set);
      if (remembered === undefined) missed.push(set);
      else for (const subject of remembered) found.push(subject);
    }
    if (missed.length === 0) return found;
    const read = await source.subjectSetsOf(missed);
    for (const set of missed) {
      const sets = read.get(formatSubject(set)) ?? [];
      if (sets.length <= this.limits.maxRememberedSets) memo.rememberSubjectSets(set, sets, generation);
      for (const subject of sets) found.push(subject);
    }
    return found;
  }

  /**
   * The sets among `subjects` that the walk has not visited yet, of known namespaces, marked visited;
   * undefined when they pass the visited-set budget (the check is then denied).
   */
  private admit(subjects: readonly Subject[], visited: Set<string>): SubjectSet[] | undefined {
    const next: SubjectSet[] = [];
    for (const subject of subjects) {
      if (!isSubjectSet(subject) || !this.namespaces.has(subject.namespace)) continue;
      const key = formatSubject(subject);
      if (visited.has(key)) continue;
      if (visited.size >= this.limits.maxVisitedSets) return undefined;
      visited.add(key);
      next.push(subject);
    }
    return next;
  }
}

function canFillMemo(source: TupleSource): source is MemoSource {
  return source.subjectSetsOf !== undefined && source.setsWithSubject !== undefined;
}

/** A set of level d may stand for every relation of its object (`ns:obj#`): it holds the target when any relation does. */
function holderKeys(sets: readonly SubjectSet[]): ReadonlySet<string> {
  const keys = new Set<string>();
  for (const set of sets) {
    keys.add(formatSubject(set));
    keys.add(formatSubject({ ...set, relation: '' }));
  }
  return keys;
}
