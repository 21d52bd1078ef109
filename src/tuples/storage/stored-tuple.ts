/** A subject set as stored: namespace by id. */
export interface StoredSet {
  readonly namespaceId: number;
  readonly object: string;
  /** Empty: every relation of the object. */
  readonly relation: string;
}

/** A row of `relation_tuples`. */
export interface StoredTuple extends StoredSet {
  readonly subjectKey: string;
}

/** Equality filters of a list; absent members do not filter. */
export interface StoredFilter {
  readonly namespaceId: number;
  readonly object?: string;
  readonly relation?: string;
  readonly subjectKey?: string;
}

/** Where a page ends, in the list's order (object, relation, subject_key). */
export interface PageCursor {
  readonly object: string;
  readonly relation: string;
  readonly subjectKey: string;
}

/** A check's read of one exact set: its subjects that are `targetKey`, plus its subject sets when `withSets`. */
export interface SetCheckRead {
  readonly set: StoredSet;
  readonly targetKey: string;
  readonly withSets: boolean;
}
