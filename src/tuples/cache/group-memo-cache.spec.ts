import { describe, expect, it } from 'vitest';
import type { TuplesConfig } from '../../config/app-config.js';
import type { ChangeNotifier } from '../../database/change-notifier.js';
import type { SubjectSet } from '../domain/relation-tuple.js';
import { CheckEngine, DEFAULT_CHECK_LIMITS } from '../engine/check.engine.js';
import { InMemoryTupleSource, parseTupleText } from '../engine/in-memory-tuple-source.js';
import { TUPLES_CHANGED } from './check-cache.js';
import { GroupMemoCache } from './group-memo-cache.js';

const CHAIN = [
  'files:doc1#viewer@groups:team#member',
  'files:doc2#viewer@groups:team#member',
  'groups:team#member@groups:dept#member',
  'groups:dept#member@boss',
];

/** Runs `during` when a read of subject sets is in flight: a write committing meanwhile. */
class SlowSource extends InMemoryTupleSource {
  during: (() => void) | undefined;

  override async subjectSetsOf(sets: readonly SubjectSet[]): Promise<ReadonlyMap<string, readonly SubjectSet[]>> {
    const read = await super.subjectSetsOf(sets);
    this.during?.();
    return read;
  }
}

/** A memo subscribed to a notifier that the spec fires by hand; returns the tuple-write announcement. */
function memoWithNotifier(): { memo: GroupMemoCache; announce: () => void } {
  const listeners: Array<(key: string) => void> = [];
  const notifier = {
    subscribe: (topic: string, listener: (key: string) => void) => {
      if (topic === TUPLES_CHANGED) listeners.push(listener);
    },
  } as unknown as ChangeNotifier;
  const memo = new GroupMemoCache({ namespaces: [], maxDepth: 5, cacheSize: 0, setCacheSize: 1000 } as TuplesConfig, notifier);
  memo.onModuleInit();
  return { memo, announce: () => listeners.forEach((listener) => listener('*')) };
}

function setup(): { source: SlowSource; engine: CheckEngine; announce: () => void } {
  const source = new SlowSource(CHAIN);
  const { memo, announce } = memoWithNotifier();
  return { source, engine: new CheckEngine(source, new Set(['files', 'groups']), DEFAULT_CHECK_LIMITS, memo), announce };
}

const readsOf = async (source: InMemoryTupleSource, run: () => Promise<unknown>): Promise<string[]> => {
  const before = source.calls.length;
  await run();
  return source.calls.slice(before).map((call) => call.method);
};

describe('GroupMemoCache', () => {
  it('keeps what a check read until a tuple write is announced', async () => {
    const { source, engine, announce } = setup();
    expect(await engine.check(parseTupleText('files:doc1#viewer@boss'), 5)).toBe(true);
    expect(await readsOf(source, () => engine.check(parseTupleText('files:doc2#viewer@boss'), 5))).toEqual(['subjectsForCheck']);
    announce();
    expect(await readsOf(source, () => engine.check(parseTupleText('files:doc2#viewer@boss'), 5))).toEqual([
      'subjectsForCheck',
      'setsWithSubject',
      'subjectSetsOf',
    ]);
  });

  it('does not keep what a check read before a write announced while it ran', async () => {
    const { source, engine, announce } = setup();
    source.during = announce;
    expect(await engine.check(parseTupleText('files:doc1#viewer@boss'), 5)).toBe(true);
    source.during = undefined;
    // The target's holders were stored before the announcement, and dropped by it; the sets read
    // while it came were never stored.
    expect(await readsOf(source, () => engine.check(parseTupleText('files:doc2#viewer@boss'), 5))).toEqual([
      'subjectsForCheck',
      'setsWithSubject',
      'subjectSetsOf',
    ]);
  });
});
