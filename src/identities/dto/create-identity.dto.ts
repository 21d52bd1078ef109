import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { IDENTITY_STATES, type IdentityState } from '../identity-state.js';
import { ImportCredentialsDto } from './import-credentials.dto.js';

/**
 * The `createIdentity` body of POST /identities. `traits` is a free object checked against the
 * identity schema (not here); an empty `schema_id` means the default schema. `credentials` is the
 * import path for a password (hash or clear text) and is not part of Kratos v0.6's body.
 */
export class CreateIdentityDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  schema_id?: string;

  @IsOptional()
  @IsObject()
  traits?: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ImportCredentialsDto)
  credentials?: ImportCredentialsDto;

  /** `active` (default) or `inactive`, as in later Kratos versions. */
  @IsOptional()
  @IsIn(IDENTITY_STATES)
  state?: IdentityState;
}
