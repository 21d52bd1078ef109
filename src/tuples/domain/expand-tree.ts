import type { Subject } from './relation-tuple.js';

/**
 * A node of an expand tree (Keto v0.6): `union` for a subject set whose members are its children,
 * `leaf` for a subject id, or for a subject set that is not expanded further (depth reached, no
 * members, or already expanded elsewhere in the tree). `exclusion` and `intersection` exist on the
 * wire but are never produced: there are no subject-set rewrites.
 */
export interface ExpandTree {
  readonly type: 'union' | 'leaf';
  readonly subject: Subject;
  readonly children: readonly ExpandTree[];
}
