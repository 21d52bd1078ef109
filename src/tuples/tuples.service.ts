import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { TuplesConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { CheckCache } from './cache/check-cache.js';
import { GroupMemoCache } from './cache/group-memo-cache.js';
import type { ExpandTree } from './domain/expand-tree.js';
import { formatSubject, type RelationTuple } from './domain/relation-tuple.js';
import { checkNamespace, checkObject, checkRelation, parseSubject, parseTuple, type TupleFields } from './domain/tuple-syntax.js';
import { CheckEngine, DEFAULT_CHECK_LIMITS } from './engine/check.engine.js';
import { ExpandEngine } from './engine/expand.engine.js';
import { NamespaceRegistry } from './namespace-registry.js';
import { PageTokenCodec } from './page-token.codec.js';
import { SetCheckBatchReader } from './storage/set-check-batch.reader.js';
import { StoredTupleSource } from './storage/stored-tuple-source.js';
import type { StoredFilter, StoredTuple } from './storage/stored-tuple.js';
import { decodeSubject, encodeSubject } from './storage/subject-key.js';
import { TuplesError } from './tuples.errors.js';
import { TuplesRepository } from './tuples.repository.js';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** The set part of a tuple as a request names it. */
export interface SubjectSetFields {
  readonly namespace: string;
  readonly object: string;
  readonly relation: string;
}

/** GET /relation-tuples: namespace required; empty strings filter nothing (Keto v0.6). */
export interface ListFields {
  readonly namespace: string;
  readonly object?: string;
  readonly relation?: string;
  readonly subject?: string;
  readonly pageToken?: string;
  readonly pageSize?: number;
}

export interface TuplePage {
  readonly tuples: readonly RelationTuple[];
  /** Empty on the last page. */
  readonly nextPageToken: string;
}

export interface PatchDelta {
  readonly action: 'insert' | 'delete';
  readonly tuple: TupleFields;
}

/**
 * The relation-tuple context's API: writes, lists, check and expand. Input arrives as the wire's
 * strings and is validated here (TuplesError, 400/404). A committed write that changed rows drops
 * this instance's check cache and group memo before it returns, and announces the drop to the other
 * instances.
 */
@Injectable()
export class TuplesService {
  private readonly checkEngine: CheckEngine;
  private readonly expandEngine: ExpandEngine;
  private readonly maxDepth: number;

  constructor(
    private readonly repository: TuplesRepository,
    private readonly namespaces: NamespaceRegistry,
    private readonly cache: CheckCache,
    private readonly pageTokens: PageTokenCodec,
    @InjectConfig('tuples') tuples: TuplesConfig,
    groups: GroupMemoCache,
    setReads: SetCheckBatchReader,
  ) {
    const source = new StoredTupleSource(repository, setReads, namespaces);
    this.checkEngine = new CheckEngine(source, namespaces, DEFAULT_CHECK_LIMITS, tuples.setCacheSize > 0 ? groups : undefined);
    this.expandEngine = new ExpandEngine(source, namespaces);
    this.maxDepth = tuples.maxDepth;
  }

  /**
   * Whether the tuple holds, directly or through subject sets. An unknown namespace answers false
   * (Keto v0.6), a malformed tuple is a 400. `maxDepth` may only lower the configured depth.
   */
  /** A cached answer at once, with no promise made; otherwise once the check engine has answered. */
  check(fields: TupleFields, maxDepth?: number): boolean | Promise<boolean> {
    const tuple = parseTuple(fields);
    const depth = this.depthFor(maxDepth);
    // Unambiguous: namespace, object and relation hold no `@`, and the subject comes last.
    const key = `${depth}|${formatSubject(tuple)}@${formatSubject(tuple.subject)}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const generation = this.cache.generation();
    return this.checkEngine.check(tuple, depth).then((allowed) => {
      this.cache.set(key, allowed, generation);
      return allowed;
    });
  }

  /** The tree of the set's members; null when it has none. Unknown namespace: 404. */
  async expand(fields: SubjectSetFields, maxDepth?: number): Promise<ExpandTree | null> {
    const set = {
      namespace: this.knownNamespace(fields.namespace, 'namespace'),
      object: checkObject(fields.object, 'object'),
      relation: checkRelation(fields.relation, 'relation'),
    };
    return this.expandEngine.expand(set, this.depthFor(maxDepth));
  }

  async list(fields: ListFields): Promise<TuplePage> {
    const namespace = this.knownNamespace(fields.namespace, 'namespace');
    const filter: StoredFilter = {
      namespaceId: this.namespaces.idOf(namespace)!,
      object: present(fields.object) ? checkObject(fields.object, 'object') : undefined,
      relation: present(fields.relation) ? checkRelation(fields.relation, 'relation') : undefined,
      subjectKey: present(fields.subject) ? this.subjectFilter(fields.subject) : undefined,
    };
    const size = pageSize(fields.pageSize);
    const after = present(fields.pageToken) ? this.pageTokens.decode(fields.pageToken, filter) : undefined;
    // A subject set of an unknown namespace is in no tuple.
    if (filter.subjectKey === '') return { tuples: [], nextPageToken: '' };
    const rows = await this.repository.findPage(filter, after, size + 1);
    const page = rows.slice(0, size);
    const last = page.at(-1);
    return {
      tuples: page.map((row) => this.toTuple(row, namespace)),
      nextPageToken: rows.length > size && last !== undefined ? this.pageTokens.encode(last, filter) : '',
    };
  }

  /** Stores the tuple unless it exists (idempotent). Unknown namespace, also of a subject set: 404. */
  async write(fields: TupleFields): Promise<RelationTuple> {
    const tuple = parseTuple(fields);
    await this.repository.insert(this.toStored(tuple, ''), this.cache.invalidate);
    return tuple;
  }

  /**
   * Deletes the tuples of (namespace, object, relation), or only the one with `subject` when given.
   * An empty `subject` is a 400, not "every subject": only leaving it out deletes them all. With
   * `within`, in that transaction, which also carries the announcement.
   */
  async delete(fields: SubjectSetFields & { readonly subject?: string }, within?: EntityManager): Promise<void> {
    const namespace = this.knownNamespace(fields.namespace, 'namespace');
    const object = checkObject(fields.object, 'object');
    const relation = checkRelation(fields.relation, 'relation');
    const subjectKey = fields.subject === undefined ? undefined : this.subjectFilter(fields.subject);
    if (subjectKey === '') return;
    const namespaceId = this.namespaces.idOf(namespace)!;
    await this.repository.deleteMatching({ namespaceId, object, relation, subjectKey }, this.cache.invalidate, within);
  }

  /**
   * Applies the deltas in one transaction, inserts before deletes (Keto v0.6). Every delta is
   * validated first: one bad delta and nothing is applied.
   */
  async patch(deltas: readonly PatchDelta[]): Promise<void> {
    const inserts: StoredTuple[] = [];
    const deletes: StoredTuple[] = [];
    deltas.forEach((delta, index) => {
      const prefix = `[${index}].relation_tuple.`;
      const stored = this.toStored(parseTuple(delta.tuple, prefix), prefix);
      (delta.action === 'insert' ? inserts : deletes).push(stored);
    });
    if (inserts.length + deletes.length === 0) return;
    await this.repository.transact(inserts, deletes, this.cache.invalidate);
  }

  /**
   * Makes a namespace known to this instance when NAMESPACES does not list it (see NamespaceRegistry);
   * a malformed name is a 400.
   */
  ensureNamespace(name: string, field: string): void {
    this.namespaces.ensure(checkNamespace(name, field));
  }

  /**
   * Inserts the tuple unless it exists, in the caller's transaction, which also carries the
   * announcement when the tuple was new.
   */
  async writeWithin(manager: EntityManager, fields: TupleFields): Promise<void> {
    await this.repository.insertWithin(manager, this.toStored(parseTuple(fields), ''), this.cache.invalidate);
  }

  /**
   * Deletes the tuples of (namespace, object, relation), or only the subject's, in the caller's
   * transaction, which also carries the announcement.
   */
  async deleteWithin(manager: EntityManager, fields: SubjectSetFields & { readonly subject?: string }): Promise<void> {
    await this.delete(fields, manager);
  }

  /**
   * Deletes every tuple of the namespace whose subject is this subject id, in the caller's transaction,
   * which also carries the announcement when any went.
   */
  async deleteSubjectWithin(manager: EntityManager, namespace: string, subjectId: string): Promise<void> {
    const namespaceId = this.namespaces.idOf(this.knownNamespace(namespace, 'namespace'))!;
    const subjectKey = encodeSubject(parseSubject(subjectId, 'subject'), this.namespaces);
    if (subjectKey === undefined) return;
    await this.repository.deleteSubjectWithin(manager, namespaceId, subjectKey, this.cache.invalidate);
  }

  private depthFor(requested: number | undefined): number {
    return requested === undefined || requested <= 0 ? this.maxDepth : Math.min(requested, this.maxDepth);
  }

  private knownNamespace(name: string, field: string): string {
    checkNamespace(name, field);
    if (!this.namespaces.has(name)) throw TuplesError.unknownNamespace(field);
    return name;
  }

  /** The stored key a `subject` filter matches: '' when it names a set of an unknown namespace. */
  private subjectFilter(text: string): string {
    return encodeSubject(parseSubject(text, 'subject'), this.namespaces) ?? '';
  }

  private toStored(tuple: RelationTuple, prefix: string): StoredTuple {
    const namespaceId = this.namespaces.idOf(tuple.namespace);
    if (namespaceId === undefined) throw TuplesError.unknownNamespace(`${prefix}namespace`);
    const subjectKey = encodeSubject(tuple.subject, this.namespaces);
    if (subjectKey === undefined) throw TuplesError.unknownNamespace(`${prefix}subject`);
    return { namespaceId, object: tuple.object, relation: tuple.relation, subjectKey };
  }

  private toTuple(row: StoredTuple, namespace: string): RelationTuple {
    return { namespace, object: row.object, relation: row.relation, subject: decodeSubject(row.subjectKey, this.namespaces) };
  }
}

function present(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

/** Absent or 0: the default (Keto v0.6); above the maximum: the maximum. */
function pageSize(requested: number | undefined): number {
  if (requested === undefined || requested === 0) return DEFAULT_PAGE_SIZE;
  return Math.min(requested, MAX_PAGE_SIZE);
}
