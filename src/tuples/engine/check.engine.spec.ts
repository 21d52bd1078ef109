import { describe, expect, it } from 'vitest';
import { CheckEngine } from './check.engine.js';
import type { Subject, SubjectSet } from '../domain/relation-tuple.js';
import { InMemoryTupleSource, parseTupleText } from './in-memory-tuple-source.js';

const NAMESPACES = new Set(['files', 'groups', 'folders']);

function engineOver(lines: readonly string[], maxVisitedSets?: number): { engine: CheckEngine; source: InMemoryTupleSource } {
  const source = new InMemoryTupleSource(lines);
  const engine = new CheckEngine(source, NAMESPACES, maxVisitedSets === undefined ? undefined : { maxVisitedSets });
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
      const small = new CheckEngine(source, NAMESPACES, { maxVisitedSets: 100 });
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
