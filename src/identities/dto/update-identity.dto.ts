import { IsDefined, IsIn, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { IDENTITY_STATES, type IdentityState } from '../identity-state.js';

/**
 * The `updateIdentity` body of PUT /identities/{id}: the whole traits object (no patching). An empty or
 * absent `schema_id` keeps the identity's schema (Kratos v0.6). Credentials cannot be changed here.
 */
export class UpdateIdentityDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  schema_id?: string;

  @IsDefined()
  @IsObject()
  traits!: Record<string, unknown>;

  /** `active` or `inactive`; absent keeps the current state. Going inactive ends the identity's sessions and tokens. */
  @IsOptional()
  @IsIn(IDENTITY_STATES)
  state?: IdentityState;
}
