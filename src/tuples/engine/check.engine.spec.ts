import { describe, expect, it } from 'vitest';
import type { TuplesConfig } from '../../config/app-config.js';
import type { ChangeNotifier } from '../../database/change-notifier.js';
import { GroupMemoCache } from '../cache/group-memo-cache.js';
import { formatSubject, type Subject, type SubjectSet } from '../domain/relation-tuple.js';
import { CheckEngine, DEFAULT_CHECK_LIMITS, type CheckLimits } from './check.engine.js';
import { InMemoryTupleSource, parseTupleText } from './in-memory-tuple-source.js';
import { seededRandom } from '../../../test/support/seeded-random.js';

const NAMESPACES = new Set(['files', 'groups', 'folders']);

function engineOver(lines: readonly string[], maxVisitedSets?: number): { engine: CheckEngine; source: InMemoryTupleSource } {
  const source = new InMemoryTupleSource(lines);
  const engine = new CheckEngine(
    source,
    NAMESPACES,
    maxVisitedSets === undefined ? undefined : { ...DEFAULT_CHECK_LIMITS, maxVisitedSets },
  );
  return { engine, source };
}

const check = (engine: CheckEngine, tuple: string, maxDepth = 5): Promise<boolean> => engine.check(parseTupleText(tuple), maxDepth);

describe('CheckEngine', () => {
  describe('direct tuples', () => {
    const { engine, source } = engineOver(['files:doc#viewer@alice', 'files:doc#owner@bob']);

    it('allows a subject that holds the tuple itself, in one read', async () => {
      const before = source.calls.length;
      expect(await check(engine, 'files:doc#viewer@alice')).toBe(true);
      expect(source.calls.length - before).toBe(1);
    });

    it('denies another subject, another relation and another object', async () => {
      expect(await check(engine, 'files:doc#viewer@bob')).toBe(false);
      expect(await check(engine, 'files:doc#owner@alice')).toBe(false);
      expect(await check(engine, 'files:other#viewer@alice')).toBe(false);
    });

    it('compares subject ids exactly (no case folding, no trimming)', async () => {
      expect(await check(engine, 'files:doc#viewer@Alice')).toBe(false);
      expect(await check(engine, 'files:doc#viewer@alice ')).toBe(false);
    });
  });

  describe('subject-set chains', () => {
    const { engine, source } = engineOver([
      'files:doc#viewer@groups:readers#member',
      'groups:readers#member@groups:staff#member',
      'groups:staff#member@groups:interns#member',
      'groups:interns#member@carol',
      'groups:staff#member@dave',
      'files:doc#viewer@groups:staff#lead',
    ]);

    it('follows one subject set', async () => {
      expect(await check(engine, 'files:doc#viewer@groups:readers#member')).toBe(true);
    });

    it('follows a chain of sets, one read per level', async () => {
      const before = source.calls.length;
      expect(await check(engine, 'files:doc#viewer@dave')).toBe(true);
      expect(source.calls.length - before).toBe(3);
      expect(await check(engine, 'files:doc#viewer@carol')).toBe(true);
    });

    it('accepts a subject set as the subject asked about', async () => {
      expect(await check(engine, 'files:doc#viewer@groups:interns#member')).toBe(true);
      expect(await check(engine, 'files:doc#viewer@groups:interns#lead')).toBe(false);
    });

    it('does not confuse relations of the same object', async () => {
      expect(await check(engine, 'groups:staff#lead@dave')).toBe(false);
    });
  });

  describe('cycles', () => {
    const { engine, source } = engineOver([
      'groups:a#member@groups:b#member',
      'groups:b#member@groups:c#member',
      'groups:c#member@groups:a#member',
      'groups:c#member@erin',
      'groups:self#member@groups:self#member',
    ]);

    it('finds a subject inside a cycle', async () => {
      expect(await check(engine, 'groups:a#member@erin')).toBe(true);
    });

    it('ends on a cycle without the subject, visiting each set once', async () => {
      const before = source.calls.length;
      expect(await check(engine, 'groups:a#member@frank', 100)).toBe(false);
      const reads = source.calls.slice(before);
      expect(reads).toHaveLength(3);
      expect(reads.flatMap((call) => call.sets).map((set) => set.object)).toEqual(['a', 'b', 'c']);
    });

    it('ends on a set that contains itself', async () => {
      expect(await check(engine, 'groups:self#member@frank', 100)).toBe(false);
    });
  });

  describe('depth limits', () => {
    const { engine, source } = engineOver([
      'files:doc#viewer@groups:g1#member',
      'groups:g1#member@groups:g2#member',
      'groups:g2#member@groups:g3#member',
      'groups:g3#member@grace',
    ]);

    it('counts the tuples on the path: four tuples need depth 4', async () => {
      expect(await check(engine, 'files:doc#viewer@grace', 4)).toBe(true);
      expect(await check(engine, 'files:doc#viewer@grace', 3)).toBe(false);
    });

    it('checks only the tuple itself at depth 1', async () => {
      expect(await check(engine, 'files:doc#viewer@groups:g1#member', 1)).toBe(true);
      expect(await check(engine, 'files:doc#viewer@groups:g2#member', 1)).toBe(false);
    });

    it('does not read the subject sets of the last level', async () => {
      const before = source.calls.length;
      await check(engine, 'files:doc#viewer@nobody', 2);
      expect(source.calls.length - before).toBe(2);
    });

    it('reads nothing at depth 0', async () => {
      const before = source.calls.length;
      expect(await check(engine, 'files:doc#viewer@groups:g1#member', 0)).toBe(false);
      expect(source.calls.length).toBe(before);
    });
  });

  describe('wide fan-out', () => {
    const groups = Array.from({ length: 2000 }, (_, i) => `files:big#viewer@groups:g${i}#member`);
    const members = Array.from({ length: 2000 }, (_, i) => `groups:g${i}#member@user${i}`);
    const { engine, source } = engineOver([...groups, ...members]);

    it('reads a whole level of 2000 sets in one call', async () => {
      const before = source.calls.length;
      expect(await check(engine, 'files:big#viewer@user1999')).toBe(true);
      const reads = source.calls.slice(before);
      expect(reads).toHaveLength(2);
      expect(reads[1]!.sets).toHaveLength(2000);
    });

    it('stops at the visited-set budget and denies', async () => {
      const small = new CheckEngine(source, NAMESPACES, { ...DEFAULT_CHECK_LIMITS, maxVisitedSets: 100 });
      expect(await small.check(parseTupleText('files:big#viewer@user1999'), 5)).toBe(false);
      expect(await small.check(parseTupleText('files:big#viewer@groups:g1999#member'), 5)).toBe(true);
    });
  });

  describe('a source that walks the whole check in one call', () => {
    /** Answers every check with `answer` from `reaches`, and records each call. */
    class OneCallSource extends InMemoryTupleSource {
      readonly walks: number[] = [];

      constructor(
        lines: readonly string[],
        private readonly answer: boolean | undefined,
      ) {
        super(lines);
      }

      async reaches(_start: SubjectSet, _target: Subject, maxDepth: number): Promise<boolean | undefined> {
        this.walks.push(maxDepth);
        return this.answer;
      }
    }

    it('takes its answer without reading level by level', async () => {
      const source = new OneCallSource(['files:doc#viewer@alice'], false);
      const engine = new CheckEngine(source, NAMESPACES);
      expect(await check(engine, 'files:doc#viewer@alice', 4)).toBe(false);
      expect(source.walks).toEqual([4]);
      expect(source.calls).toHaveLength(0);
    });

    it('walks level by level when the source leaves the answer open', async () => {
      const source = new OneCallSource(['files:doc#viewer@groups:g#member', 'groups:g#member@alice'], undefined);
      const engine = new CheckEngine(source, NAMESPACES);
      expect(await check(engine, 'files:doc#viewer@alice')).toBe(true);
      expect(source.walks).toHaveLength(1);
      expect(source.calls).toHaveLength(2);
    });

    it('is not asked at depth 0 nor for an unknown namespace', async () => {
      const source = new OneCallSource([], true);
      const engine = new CheckEngine(source, NAMESPACES);
      expect(await check(engine, 'files:doc#viewer@alice', 0)).toBe(false);
      expect(await check(engine, 'ghosts:g#member@alice')).toBe(false);
      expect(source.walks).toHaveLength(0);
    });
  });

  describe('unknown namespaces', () => {
    const { engine, source } = engineOver(['files:doc#viewer@ghosts:g#member', 'ghosts:g#member@henry', 'files:doc#viewer@ghosts:g#other']);

    it('denies a check in an unknown namespace without reading anything', async () => {
      const before = source.calls.length;
      expect(await check(engine, 'ghosts:g#member@henry')).toBe(false);
      expect(source.calls.length).toBe(before);
    });

    it('does not follow a subject set of an unknown namespace', async () => {
      expect(await check(engine, 'files:doc#viewer@henry')).toBe(false);
    });

    it('still matches such a subject set as the subject asked about', async () => {
      expect(await check(engine, 'files:doc#viewer@ghosts:g#other')).toBe(true);
    });
  });

  describe('subject sets with an empty relation', () => {
    const { engine } = engineOver(['files:doc#viewer@folders:root#', 'folders:root#owner@ivan', 'folders:root#made-up@judy']);

    it('stand for every relation of the object', async () => {
      expect(await check(engine, 'files:doc#viewer@ivan')).toBe(true);
      expect(await check(engine, 'files:doc#viewer@judy')).toBe(true);
      expect(await check(engine, 'files:doc#viewer@kim')).toBe(false);
    });
  });
});

describe('CheckEngine with a group memo', () => {
  const config = (setCacheSize: number): TuplesConfig => ({ namespaces: [], maxDepth: 5, cacheSize: 0, setCacheSize });
  /** The memo is only dropped by tuple writes, which these sources never see. */
  const notifier = { subscribe: () => undefined } as unknown as ChangeNotifier;
  const memoEngine = (source: InMemoryTupleSource, limits: CheckLimits = DEFAULT_CHECK_LIMITS, entries = 1000): CheckEngine =>
    new CheckEngine(source, NAMESPACES, limits, new GroupMemoCache(config(entries), notifier));

  describe('a warm three-hop check', () => {
    const source = new InMemoryTupleSource([
      'files:doc1#viewer@groups:team#member',
      'files:doc2#viewer@groups:team#member',
      'groups:team#member@groups:dept#member',
      'groups:dept#member@boss',
    ]);
    const engine = memoEngine(source);

    it('reads only the checked set once the groups below it are remembered', async () => {
      expect(await check(engine, 'files:doc1#viewer@boss')).toBe(true);
      const before = source.calls.length;
      expect(await check(engine, 'files:doc2#viewer@boss')).toBe(true);
      expect(source.calls.slice(before)).toEqual([
        { method: 'subjectsForCheck', sets: [{ namespace: 'files', object: 'doc2', relation: 'viewer' }] },
      ]);
      expect(await check(engine, 'files:doc2#viewer@boss', 2)).toBe(false);
      expect(source.calls.length - before).toBe(2);
    });
  });

  describe('a target in more sets than the memo keeps', () => {
    const source = new InMemoryTupleSource([
      'files:doc#viewer@groups:team#member',
      'groups:team#member@star',
      'groups:other#member@star',
      'groups:third#member@star',
    ]);
    const engine = memoEngine(source, { ...DEFAULT_CHECK_LIMITS, maxRememberedSets: 2 });

    it('is probed for in the level, as without a memo', async () => {
      expect(await check(engine, 'files:doc#viewer@star')).toBe(true);
      const before = source.calls.length;
      expect(await check(engine, 'files:doc#viewer@star')).toBe(true);
      expect(source.calls.slice(before).map((call) => call.method)).toEqual(['subjectsForCheck', 'subjectsForCheck']);
    });
  });

  describe('against the plain level walk on random graphs', () => {
    const KNOWN = ['files', 'groups', 'folders'];
    const ALL = [...KNOWN, 'ghosts'];
    const OBJECTS = ['a', 'b', 'c'];
    const RELATIONS = ['member', 'owner'];
    const IDS = ['u1', 'u2', 'u3'];
    const sets: SubjectSet[] = ALL.flatMap((namespace) =>
      OBJECTS.flatMap((object) => ['', ...RELATIONS].map((relation) => ({ namespace, object, relation }))),
    );
    const targets: Subject[] = [...IDS.map((id) => ({ id })), ...sets];
    const settings: Array<{ limits: CheckLimits; entries: number }> = [
      { limits: DEFAULT_CHECK_LIMITS, entries: 1000 },
      { limits: { maxVisitedSets: 4, maxRememberedSets: 1 }, entries: 1000 },
      { limits: { maxVisitedSets: 10_000, maxRememberedSets: 2 }, entries: 3 },
    ];

    function graph(next: () => number): string[] {
      const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
      const lines = new Set<string>();
      const count = 10 + Math.floor(next() * 30);
      while (lines.size < count) {
        const subject = next() < 0.3 ? pick(IDS) : formatSubject(pick(sets));
        lines.add(`${pick(ALL)}:${pick(OBJECTS)}#${pick(RELATIONS)}@${subject}`);
      }
      return [...lines];
    }

    it('gives the same answer for every start, target and depth 1 to 4', async () => {
      const next = seededRandom(20261126);
      let compared = 0;
      let allowed = 0;
      for (let round = 0; round < 12; round += 1) {
        const lines = graph(next);
        for (const { limits, entries } of settings) {
          const plain = new CheckEngine(new InMemoryTupleSource(lines), NAMESPACES, limits);
          const remembering = memoEngine(new InMemoryTupleSource(lines), limits, entries);
          for (const start of sets)
            for (const subject of targets)
              for (let depth = 1; depth <= 4; depth += 1) {
                const tuple = { ...start, subject };
                const expected = await plain.check(tuple, depth);
                if ((await remembering.check(tuple, depth)) !== expected)
                  expect.fail(
                    `${formatSubject(start)}@${formatSubject(subject)} depth ${depth} in ${JSON.stringify(lines)}: not ${expected}`,
                  );
                compared += 1;
                if (expected) allowed += 1;
              }
        }
      }
      // Both answers occur often enough for the comparison to mean something.
      expect(allowed).toBeGreaterThan(compared / 50);
      expect(compared - allowed).toBeGreaterThan(compared / 2);
    }, 60_000);
  });
});
