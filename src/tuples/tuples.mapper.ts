import type { ExpandTree } from './domain/expand-tree.js';
import { formatSubject, type RelationTuple } from './domain/relation-tuple.js';
import type { ExpandTreeDto } from './dto/expand-tree.dto.js';
import type { RelationTupleResponseDto } from './dto/relation-tuple-response.dto.js';
import type { RelationTuplesPageDto } from './dto/relation-tuples-page.dto.js';
import type { TuplePage } from './tuples.service.js';

export function toRelationTupleResponse(tuple: RelationTuple): RelationTupleResponseDto {
  return { namespace: tuple.namespace, object: tuple.object, relation: tuple.relation, subject: formatSubject(tuple.subject) };
}

export function toPageResponse(page: TuplePage): RelationTuplesPageDto {
  return { relation_tuples: page.tuples.map(toRelationTupleResponse), next_page_token: page.nextPageToken };
}

export function toExpandTreeResponse(tree: ExpandTree): ExpandTreeDto {
  const node: ExpandTreeDto = { type: tree.type, subject: formatSubject(tree.subject) };
  if (tree.children.length > 0) node.children = tree.children.map(toExpandTreeResponse);
  return node;
}

/** `Location` of a written tuple (Keto v0.6): the list query that finds it. */
export function locationOf(tuple: RelationTuple): string {
  const query = new URLSearchParams({
    namespace: tuple.namespace,
    object: tuple.object,
    relation: tuple.relation,
    subject: formatSubject(tuple.subject),
  });
  return `/relation-tuples?${query.toString()}`;
}
