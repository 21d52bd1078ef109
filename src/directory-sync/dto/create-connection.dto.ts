import { IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { DEACTIVATION_POLICIES, type DeactivationPolicy } from '../deactivation-policy.js';

/** `POST /directory-sync/connections`. */
export class CreateConnectionDto {
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name!: string;

  /** Identity schema of the identities the connection creates; absent = the default schema. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  schema_id?: string;

  /** Relation-tuple namespace of the group memberships (default `groups`); a namespace name holds none of `:#@`. */
  @IsOptional()
  @IsString()
  @Matches(/^[^\s:#@\p{Cc}]{1,64}$/u)
  groups_namespace?: string;

  @IsOptional()
  @IsIn(DEACTIVATION_POLICIES)
  on_deactivate?: DeactivationPolicy;
}
