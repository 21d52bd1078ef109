/** A subject the application names itself (a user id, a device, ...). Never contains `#`. */
export interface SubjectId {
  readonly id: string;
}

/**
 * Everyone who has `relation` on `namespace:object`. An empty relation (`files:a#`) stands for every
 * relation of the object, as in Keto v0.6.
 */
export interface SubjectSet {
  readonly namespace: string;
  readonly object: string;
  readonly relation: string;
}

export type Subject = SubjectId | SubjectSet;

/** `namespace:object#relation@subject`. A tuple is also the subject set of its first three parts. */
export interface RelationTuple extends SubjectSet {
  readonly subject: Subject;
}

export function isSubjectSet(subject: Subject): subject is SubjectSet {
  return 'namespace' in subject;
}

/**
 * The subject string of the wire: the id, or `namespace:object#relation`. It is also a subject's
 * identity: two subjects are equal when their strings are (ids cannot hold `#`; namespace names and
 * objects cannot hold `:` or `#`, so the string is unambiguous).
 */
export function formatSubject(subject: Subject): string {
  return isSubjectSet(subject) ? `${subject.namespace}:${subject.object}#${subject.relation}` : subject.id;
}
