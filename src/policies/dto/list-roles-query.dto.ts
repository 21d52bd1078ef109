import { IsOptional, IsString } from 'class-validator';

/** Query of `GET .../roles`. `limit` and `offset` are read by PageQuery; `member` keeps roles that list it. */
export class ListRolesQueryDto {
  @IsOptional()
  limit?: unknown;

  @IsOptional()
  offset?: unknown;

  @IsOptional()
  @IsString()
  member?: string;
}
