import { IsOptional, IsString } from 'class-validator';

/**
 * Query of `GET .../policies`. `limit` and `offset` are read by PageQuery; the filters keep a policy
 * when the literal string is one of its subjects, resources or actions (element equality, no pattern
 * matching, as in Keto) and are checked further by the service.
 */
export class ListPoliciesQueryDto {
  @IsOptional()
  limit?: unknown;

  @IsOptional()
  offset?: unknown;

  @IsOptional()
  @IsString()
  subject?: string;

  @IsOptional()
  @IsString()
  resource?: string;

  @IsOptional()
  @IsString()
  action?: string;
}
