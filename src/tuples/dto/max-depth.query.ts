import { Type } from 'class-transformer';
import { IsInt, IsOptional } from 'class-validator';

/**
 * `max-depth` of check and expand. Absent or ≤ 0: TUPLES_MAX_DEPTH. Larger than TUPLES_MAX_DEPTH:
 * lowered to it (a request may only lower the configured depth). Not a whole number: 400.
 */
export class MaxDepthQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  'max-depth'?: number;
}
