import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Max, Min, MaxLength } from 'class-validator';

/** Seconds; the largest value a PostgreSQL integer (and a cookie Max-Age in practice) holds. */
export const MAX_REMEMBER_FOR = 2_147_483_647;

/** The `acceptLoginRequest` body of PUT /oauth2/auth/requests/login/accept. Unknown fields are a 400. */
export class AcceptLoginRequestDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  subject!: string;

  /** Remember the login in a cookie so later requests skip it. Forced to true when the request was a skip. */
  @IsOptional()
  @IsBoolean()
  remember?: boolean;

  /** Seconds the login is remembered; 0 (default) = until the browser closes. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_REMEMBER_FOR)
  remember_for?: number;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  acr?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(32)
  @IsString({ each: true })
  @MaxLength(255, { each: true })
  amr?: string[];

  /** Free JSON handed on to the consent app as the consent request's `context`. */
  @IsOptional()
  @IsObject()
  context?: Record<string, unknown>;

  /** The `sub` to use instead of the computed one (pairwise clients). */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  force_subject_identifier?: string;
}
