import type { ExpandTree } from '../domain/expand-tree.js';
import { formatSubject, isSubjectSet, type RelationTuple, type Subject, type SubjectSet } from '../domain/relation-tuple.js';
import type { NamespaceLookup, TupleSource } from './tuple-source.js';

/** A node while the tree is built: children are filled in when its level is read. */
interface Draft {
  type: 'union' | 'leaf';
  readonly subject: Subject;
  readonly children: Draft[];
}

/**
 * Expands a subject set into the tree of its members, with Keto v0.6's shape: a set with members is
 * a `union` of them; a subject id, a set without members, a set at the depth limit and a set already
 * expanded elsewhere in the tree (which also ends cycles) are `leaf` nodes. With `maxDepth` 1 the root
 * is a leaf; each further level adds one level of children. The tree is built breadth-first, one call
 * to the source per level. Returns null when the root set has no members (Keto answers `null`).
 */
export class ExpandEngine {
  constructor(
    private readonly source: TupleSource,
    private readonly namespaces: NamespaceLookup,
  ) {}

  async expand(root: SubjectSet, maxDepth: number): Promise<ExpandTree | null> {
    if (maxDepth < 1 || !this.namespaces.has(root.namespace)) return null;
    const rootDraft: Draft = { type: 'union', subject: root, children: [] };
    const expanded = new Set<string>([formatSubject(root)]);
    let level: Array<{ set: SubjectSet; draft: Draft }> = [{ set: root, draft: rootDraft }];
    for (let restDepth = maxDepth; level.length > 0; restDepth -= 1) {
      const members = groupByParent(await this.source.tuplesOf(level.map((entry) => entry.set)));
      const next: typeof level = [];
      for (const { set, draft } of level) {
        const children = members.get(formatSubject(set)) ?? [];
        if (children.length === 0 && draft === rootDraft) return null;
        if (children.length === 0 || restDepth <= 1) {
          draft.type = 'leaf';
          continue;
        }
        for (const child of children) {
          const childDraft: Draft = { type: 'leaf', subject: child, children: [] };
          draft.children.push(childDraft);
          if (!isSubjectSet(child) || restDepth <= 2 || !this.namespaces.has(child.namespace)) continue;
          const key = formatSubject(child);
          if (expanded.has(key)) continue;
          expanded.add(key);
          childDraft.type = 'union';
          next.push({ set: child, draft: childDraft });
        }
      }
      level = next;
    }
    return freeze(rootDraft);
  }
}

/**
 * Members by the set they belong to. A tuple `ns:obj#rel@s` makes `s` a member of `ns:obj#rel` and of
 * `ns:obj#` (the set of every relation of the object), whichever of the two was asked for.
 */
function groupByParent(tuples: readonly RelationTuple[]): Map<string, Subject[]> {
  const groups = new Map<string, Subject[]>();
  const add = (key: string, subject: Subject): void => {
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [subject]);
    else list.push(subject);
  };
  for (const tuple of tuples) {
    add(`${tuple.namespace}:${tuple.object}#${tuple.relation}`, tuple.subject);
    if (tuple.relation !== '') add(`${tuple.namespace}:${tuple.object}#`, tuple.subject);
  }
  return groups;
}

function freeze(draft: Draft): ExpandTree {
  return { type: draft.type, subject: draft.subject, children: draft.children.map(freeze) };
}
