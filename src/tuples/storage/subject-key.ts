import { isSubjectSet, type Subject } from '../domain/relation-tuple.js';
import type { NamespaceRegistry } from '../namespace-registry.js';

/**
 * How a subject is stored in `relation_tuples.subject_key`: `i:<id>` for a subject id,
 * `s:<namespace id>:<object>#<relation>` for a subject set. The prefixes put every subject set of a
 * (namespace, object, relation) in one contiguous index range (`s:` up to `s;`, the next byte), which
 * is all a check needs besides the one exact key it looks for. Namespaces are stored by id, so a
 * renamed namespace keeps its subject sets.
 */
export const SUBJECT_SET_FIRST = 's:';
export const SUBJECT_SET_END = 's;';

/** The stored key, or undefined when the subject set's namespace is not configured (nothing can match it). */
export function encodeSubject(subject: Subject, namespaces: NamespaceRegistry): string | undefined {
  if (!isSubjectSet(subject)) return `i:${subject.id}`;
  const id = namespaces.idOf(subject.namespace);
  return id === undefined ? undefined : `s:${id}:${subject.object}#${subject.relation}`;
}

/**
 * The subject of a stored key. A subject set whose namespace id is no longer configured is named by
 * the id's digits: it is shown, but never followed (no namespace of that name exists).
 */
export function decodeSubject(key: string, namespaces: NamespaceRegistry): Subject {
  if (key.startsWith('i:')) return { id: key.slice(2) };
  const colon = key.indexOf(':', 2);
  const hash = key.indexOf('#', colon);
  const id = Number(key.slice(2, colon));
  return {
    namespace: namespaces.nameOf(id) ?? String(id),
    object: key.slice(colon + 1, hash),
    relation: key.slice(hash + 1),
  };
}
