import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { MAX_REMEMBER_FOR } from './accept-login-request.dto.js';

/** `session` of acceptConsentRequest: extra claims for the tokens this consent yields. */
export class ConsentSessionDto {
  /** Lands in the access token's `ext` and in introspection. */
  @IsOptional()
  @IsObject()
  access_token?: Record<string, unknown>;

  /** Lands in the ID token and in /userinfo. */
  @IsOptional()
  @IsObject()
  id_token?: Record<string, unknown>;
}

/** The `acceptConsentRequest` body of PUT /oauth2/auth/requests/consent/accept. Unknown fields are a 400. */
export class AcceptConsentRequestDto {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(256)
  @IsString({ each: true })
  @MaxLength(255, { each: true })
  grant_scope?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(256)
  @IsString({ each: true })
  @MaxLength(2048, { each: true })
  grant_access_token_audience?: string[];

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ConsentSessionDto)
  session?: ConsentSessionDto;

  /** Remember the consent so later requests of the same subject and client skip it. */
  @IsOptional()
  @IsBoolean()
  remember?: boolean;

  /** Seconds from the request; 0 (default) = until revoked. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_REMEMBER_FOR)
  remember_for?: number;

  /** Accepted for compatibility and ignored: the server records when it handled the request. */
  @IsOptional()
  @IsISO8601()
  handled_at?: string;
}
