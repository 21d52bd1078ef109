import type { RelationTupleResponseDto } from './relation-tuple-response.dto.js';

/** `getRelationTuplesResponse`. */
export class RelationTuplesPageDto {
  relation_tuples!: RelationTupleResponseDto[];
  /** Opaque; empty if and only if this is the last page. */
  next_page_token!: string;
}
