import { IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

/** The `CreateRecoveryLink` body of POST /recovery/link. */
export class CreateRecoveryLinkDto {
  @IsUUID()
  identity_id!: string;

  /** A duration such as `1h` or `30m` (Go syntax); 1h when absent. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  expires_in?: string;
}
