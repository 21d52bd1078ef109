import { formatSubject, isSubjectSet, type RelationTuple, type Subject, type SubjectSet } from '../domain/relation-tuple.js';
import type { TupleSource } from '../engine/tuple-source.js';
import type { NamespaceRegistry } from '../namespace-registry.js';
import type { TuplesRepository } from '../tuples.repository.js';
import type { SetCheckBatchReader } from './set-check-batch.reader.js';
import { decodeSubject, encodeSubject } from './subject-key.js';
import type { StoredSet } from './stored-tuple.js';

/** The engines' view of the database: names in, names out; ids and subject keys stay below. */
export class StoredTupleSource implements TupleSource {
  constructor(
    private readonly repository: TuplesRepository,
    private readonly setReads: SetCheckBatchReader,
    private readonly namespaces: NamespaceRegistry,
  ) {}

  async subjectsForCheck(sets: readonly SubjectSet[], target: Subject, withSets: boolean): Promise<readonly Subject[]> {
    const stored = this.storedSets(sets);
    // A target in an unknown namespace matches no row; '' is never a stored key.
    const targetKey = encodeSubject(target, this.namespaces) ?? '';
    if (stored.length === 0 || (targetKey === '' && !withSets)) return [];
    // One exact set is what an uncached check usually reads; concurrent checks share its statement.
    const one = stored.length === 1 ? stored[0] : undefined;
    const keys =
      one !== undefined && one.relation !== ''
        ? await this.setReads.read({ set: one, targetKey, withSets })
        : await this.repository.subjectKeysForCheck(stored, targetKey, withSets);
    return keys.map((key) => decodeSubject(key, this.namespaces));
  }

  async reaches(start: SubjectSet, target: Subject, maxDepth: number, maxVisitedSets: number): Promise<boolean | undefined> {
    const startKey = encodeSubject(start, this.namespaces);
    // A target set of an unknown namespace equals no stored subject: no path reaches it.
    const targetKey = encodeSubject(target, this.namespaces);
    if (startKey === undefined || targetKey === undefined) return false;
    return this.repository.reaches(startKey, targetKey, maxDepth, this.namespaces.knownIds(), maxVisitedSets);
  }

  async subjectSetsOf(sets: readonly SubjectSet[]): Promise<ReadonlyMap<string, readonly SubjectSet[]>> {
    const bySet = new Map<string, SubjectSet[]>(sets.map((set) => [formatSubject(set), []]));
    const stored = this.storedSets(sets);
    if (stored.length === 0) return bySet;
    // Exact sets are what the memo usually misses: concurrent checks share their statement.
    const exact = stored.filter((set) => set.relation !== '');
    const anyRelation = stored.filter((set) => set.relation === '');
    const [shared, own] = await Promise.all([
      Promise.all(exact.map((set) => this.setReads.subjectSetsOf(set))),
      anyRelation.length === 0 ? [] : this.repository.subjectSetsOf(anyRelation),
    ]);
    for (const row of [...shared.flat(), ...own]) {
      const namespace = this.namespaceName(row.namespaceId);
      const subject = decodeSubject(row.subjectKey, this.namespaces);
      // Only subject-set keys are read; the guard keeps the type honest.
      if (isSubjectSet(subject)) bySet.get(formatSubject({ namespace, object: row.object, relation: row.relation }))?.push(subject);
    }
    return bySet;
  }

  async setsWithSubject(target: Subject, limit: number): Promise<readonly SubjectSet[] | undefined> {
    // A set of an unknown namespace equals no stored subject.
    const targetKey = encodeSubject(target, this.namespaces);
    if (targetKey === undefined) return [];
    const rows = await this.repository.setsWithSubject(targetKey, this.namespaces.knownIds(), limit);
    return rows?.map((row) => ({
      namespace: this.namespaceName(row.namespaceId),
      object: row.object,
      relation: row.relation,
    }));
  }

  async tuplesOf(sets: readonly SubjectSet[]): Promise<readonly RelationTuple[]> {
    const stored = this.storedSets(sets);
    if (stored.length === 0) return [];
    const rows = await this.repository.tuplesOf(stored);
    return rows.map((row) => ({
      namespace: this.namespaceName(row.namespaceId),
      object: row.object,
      relation: row.relation,
      subject: decodeSubject(row.subjectKey, this.namespaces),
    }));
  }

  /** A stored namespace id by name; an id this instance does not know stays readable as itself. */
  private namespaceName(id: number): string {
    return this.namespaces.nameOf(id) ?? String(id);
  }

  private storedSets(sets: readonly SubjectSet[]): StoredSet[] {
    const stored: StoredSet[] = [];
    for (const set of sets) {
      const namespaceId = this.namespaces.idOf(set.namespace);
      if (namespaceId !== undefined) stored.push({ namespaceId, object: set.object, relation: set.relation });
    }
    return stored;
  }
}
