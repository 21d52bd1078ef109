import { IsString } from 'class-validator';

/**
 * `InternalRelationTuple`: the body of PUT /relation-tuples and the tuple of a patch delta (POST
 * /check reads the same shape by hand, see check-input.ts). Only shapes here; lengths, characters and
 * the subject syntax are checked by the service.
 */
export class RelationTupleDto {
  @IsString()
  namespace!: string;

  @IsString()
  object!: string;

  @IsString()
  relation!: string;

  /** A subject id, or a subject set `namespace:object#relation`. */
  @IsString()
  subject!: string;
}
