/** `InternalRelationTuple` on the wire; `subject` is the subject string. */
export class RelationTupleResponseDto {
  namespace!: string;
  object!: string;
  relation!: string;
  subject!: string;
}
