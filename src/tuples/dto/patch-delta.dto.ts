import { Type } from 'class-transformer';
import { IsIn, IsObject, ValidateNested } from 'class-validator';
import { RelationTupleDto } from './relation-tuple.dto.js';

export const PATCH_ACTIONS = ['insert', 'delete'] as const;

/** One element of the PATCH /relation-tuples body. Any other action is a 400 (Keto v0.6 skipped it). */
export class PatchDeltaDto {
  @IsIn(PATCH_ACTIONS)
  action!: (typeof PATCH_ACTIONS)[number];

  @IsObject()
  @ValidateNested()
  @Type(() => RelationTupleDto)
  relation_tuple!: RelationTupleDto;
}
