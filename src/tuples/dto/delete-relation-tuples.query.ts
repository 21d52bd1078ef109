import { IsOptional, IsString } from 'class-validator';

/** DELETE /relation-tuples: without `subject`, every tuple of (namespace, object, relation) goes. */
export class DeleteRelationTuplesQuery {
  @IsString()
  namespace!: string;

  @IsString()
  object!: string;

  @IsString()
  relation!: string;

  @IsOptional()
  @IsString()
  subject?: string;
}
