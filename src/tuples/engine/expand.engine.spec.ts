import { describe, expect, it } from 'vitest';
import type { ExpandTree } from '../domain/expand-tree.js';
import { formatSubject, type SubjectSet } from '../domain/relation-tuple.js';
import { ExpandEngine } from './expand.engine.js';
import { InMemoryTupleSource } from './in-memory-tuple-source.js';

const NAMESPACES = new Set(['files', 'directories', 'groups']);

/** A tree as nested [type, subject, children?] arrays: easy to read in expectations. */
type Shape = [string, string] | [string, string, Shape[]];

function shape(tree: ExpandTree | null): Shape | null {
  if (tree === null) return null;
  const subject = formatSubject(tree.subject);
  return tree.children.length === 0 ? [tree.type, subject] : [tree.type, subject, tree.children.map((child) => shape(child)!)];
}

function set(text: string): SubjectSet {
  const [namespace, rest] = text.split(':') as [string, string];
  const [object, relation] = rest.split('#') as [string, string];
  return { namespace, object, relation };
}

describe('ExpandEngine', () => {
  // The tuples of Keto's own expand example (contrib/docs-code-samples/expand-api-display-access).
  const photos = new InMemoryTupleSource([
    'files:/photos/beach.jpg#owner@maureen',
    'files:/photos/beach.jpg#access@files:/photos/beach.jpg#owner',
    'files:/photos/beach.jpg#access@directories:/photos#access',
    'directories:/photos#owner@laura',
    'directories:/photos#access@directories:/photos#owner',
  ]);
  const engine = new ExpandEngine(photos, NAMESPACES);

  it('builds unions of members down to the depth, one read per level', async () => {
    const before = photos.calls.length;
    expect(shape(await engine.expand(set('files:/photos/beach.jpg#access'), 3))).toEqual([
      'union',
      'files:/photos/beach.jpg#access',
      [
        ['union', 'directories:/photos#access', [['leaf', 'directories:/photos#owner']]],
        ['union', 'files:/photos/beach.jpg#owner', [['leaf', 'maureen']]],
      ],
    ]);
    expect(photos.calls.length - before).toBe(2);
  });

  it('expands one level further when the depth allows', async () => {
    expect(shape(await engine.expand(set('files:/photos/beach.jpg#access'), 4))).toEqual([
      'union',
      'files:/photos/beach.jpg#access',
      [
        ['union', 'directories:/photos#access', [['union', 'directories:/photos#owner', [['leaf', 'laura']]]]],
        ['union', 'files:/photos/beach.jpg#owner', [['leaf', 'maureen']]],
      ],
    ]);
  });

  it('gives a leaf for the root at depth 1, and children as leaves at depth 2', async () => {
    expect(shape(await engine.expand(set('files:/photos/beach.jpg#access'), 1))).toEqual(['leaf', 'files:/photos/beach.jpg#access']);
    expect(shape(await engine.expand(set('files:/photos/beach.jpg#access'), 2))).toEqual([
      'union',
      'files:/photos/beach.jpg#access',
      [
        ['leaf', 'directories:/photos#access'],
        ['leaf', 'files:/photos/beach.jpg#owner'],
      ],
    ]);
  });

  it('returns null for a set without members, and for an unknown namespace', async () => {
    expect(await engine.expand(set('files:/photos/none.jpg#access'), 3)).toBeNull();
    expect(await engine.expand(set('ghosts:/photos/beach.jpg#access'), 3)).toBeNull();
  });

  it('ends cycles: a set already in the tree becomes a leaf', async () => {
    const cyclic = new ExpandEngine(
      new InMemoryTupleSource(['groups:a#member@groups:b#member', 'groups:b#member@groups:a#member', 'groups:b#member@zoe']),
      NAMESPACES,
    );
    expect(shape(await cyclic.expand(set('groups:a#member'), 100))).toEqual([
      'union',
      'groups:a#member',
      [
        [
          'union',
          'groups:b#member',
          [
            ['leaf', 'groups:a#member'],
            ['leaf', 'zoe'],
          ],
        ],
      ],
    ]);
  });

  it('expands a set met twice only once', async () => {
    const diamond = new ExpandEngine(
      new InMemoryTupleSource([
        'groups:top#member@groups:left#member',
        'groups:top#member@groups:right#member',
        'groups:left#member@groups:base#member',
        'groups:right#member@groups:base#member',
        'groups:base#member@yan',
      ]),
      NAMESPACES,
    );
    expect(shape(await diamond.expand(set('groups:top#member'), 5))).toEqual([
      'union',
      'groups:top#member',
      [
        ['union', 'groups:left#member', [['union', 'groups:base#member', [['leaf', 'yan']]]]],
        ['union', 'groups:right#member', [['leaf', 'groups:base#member']]],
      ],
    ]);
  });

  it('does not expand a member set of an unknown namespace', async () => {
    const ghosts = new ExpandEngine(new InMemoryTupleSource(['groups:g#member@ghosts:x#member', 'ghosts:x#member@xavier']), NAMESPACES);
    expect(shape(await ghosts.expand(set('groups:g#member'), 5))).toEqual(['union', 'groups:g#member', [['leaf', 'ghosts:x#member']]]);
  });

  it('reads a wide level in one call', async () => {
    const lines = Array.from({ length: 500 }, (_, i) => [`groups:all#member@groups:t${i}#member`, `groups:t${i}#member@u${i}`]).flat();
    const source = new InMemoryTupleSource(lines);
    const tree = await new ExpandEngine(source, NAMESPACES).expand(set('groups:all#member'), 3);
    expect(tree?.children).toHaveLength(500);
    expect(tree?.children.every((child) => child.type === 'union' && child.children.length === 1)).toBe(true);
    expect(source.calls).toHaveLength(2);
  });
});
