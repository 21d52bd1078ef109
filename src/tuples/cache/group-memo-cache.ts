import { Injectable, type OnModuleInit } from '@nestjs/common';
import { TtlCache } from '../../common/cache/ttl-cache.js';
import type { TuplesConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { ChangeNotifier } from '../../database/change-notifier.js';
import { formatSubject, type Subject, type SubjectSet } from '../domain/relation-tuple.js';
import type { GroupMemo, TargetHolders } from '../engine/tuple-source.js';
import { MAX_ANSWER_AGE_MS, TUPLES_CHANGED } from './check-cache.js';

type Entry =
  { readonly kind: 'sets'; readonly sets: readonly SubjectSet[] } | { readonly kind: 'holders'; readonly holders: TargetHolders };

/**
 * The group graph as checks the check cache misses walk it (TUPLES_SET_CACHE_SIZE entries, least
 * recently used go first): the subject sets of each set met below a checked set, and the sets holding
 * each checked subject directly. Invalidated exactly as CheckCache, for the same reasons: any
 * committed tuple write drops it all on every instance (same topic), nothing read before a drop is
 * stored after it (generations), and nothing outlives MAX_ANSWER_AGE_MS.
 */
@Injectable()
export class GroupMemoCache implements GroupMemo, OnModuleInit {
  private readonly entries: TtlCache<string, Entry>;

  constructor(
    @InjectConfig('tuples') tuples: TuplesConfig,
    private readonly notifier: ChangeNotifier,
  ) {
    this.entries = new TtlCache({ maxEntries: tuples.setCacheSize, ttlMs: MAX_ANSWER_AGE_MS });
  }

  onModuleInit(): void {
    this.notifier.subscribe(TUPLES_CHANGED, () => this.entries.clear());
  }

  generation(): number {
    return this.entries.generation();
  }

  subjectSets(set: SubjectSet): readonly SubjectSet[] | undefined {
    const entry = this.entries.get(setsKey(set));
    return entry?.kind === 'sets' ? entry.sets : undefined;
  }

  rememberSubjectSets(set: SubjectSet, sets: readonly SubjectSet[], generation: number): void {
    this.entries.set(setsKey(set), { kind: 'sets', sets }, generation);
  }

  holdersOf(target: Subject): TargetHolders | undefined {
    const entry = this.entries.get(holdersKey(target));
    return entry?.kind === 'holders' ? entry.holders : undefined;
  }

  rememberHoldersOf(target: Subject, holders: TargetHolders, generation: number): void {
    this.entries.set(holdersKey(target), { kind: 'holders', holders }, generation);
  }
}

/** Subject sets and targets share the cache: the first character tells the two kinds of key apart. */
const setsKey = (set: SubjectSet): string => `>${formatSubject(set)}`;
const holdersKey = (target: Subject): string => `@${formatSubject(target)}`;
