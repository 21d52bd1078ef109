import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/** `credentials.password.config` of an import: exactly one of the two (checked by PasswordImport). */
export class ImportPasswordConfigDto {
  /** An argon2id/argon2i PHC string or a bcrypt hash, stored as given. */
  @IsOptional()
  @IsString()
  @MaxLength(512)
  hashed_password?: string;

  /** A clear-text password, hashed with argon2id before storage. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  password?: string;
}
