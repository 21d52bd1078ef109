import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Min } from 'class-validator';

/** GET /relation-tuples. `page_size`: default 100 (also for 0), at most 1000 (larger is lowered). */
export class ListRelationTuplesQuery {
  @IsString()
  namespace!: string;

  @IsOptional()
  @IsString()
  object?: string;

  @IsOptional()
  @IsString()
  relation?: string;

  @IsOptional()
  @IsString()
  subject?: string;

  @IsOptional()
  @IsString()
  page_token?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  page_size?: number;
}
