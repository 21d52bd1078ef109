import { IsArray, IsBoolean, IsInt, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * The `oAuth2Client` body of POST /clients (and PUT, see UpdateClientDto). Only shapes are checked
 * here (a wrong type is a 400 `invalid_request` from the global pipe); the registration rules live in
 * ClientValidator. `null` is treated like an absent field. `client_secret_expires_at`, `created_at`
 * and `updated_at` are accepted so a client read with GET can be sent back unchanged, and ignored.
 */
export class CreateClientDto {
  @IsOptional()
  @IsString()
  @MaxLength(255)
  client_id?: string | null;

  @IsOptional()
  @IsString()
  client_name?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  client_secret?: string | null;

  @IsOptional()
  @IsInt()
  client_secret_expires_at?: number | null;

  @IsOptional()
  @IsString()
  client_uri?: string | null;

  @IsOptional()
  @IsString()
  logo_uri?: string | null;

  @IsOptional()
  @IsString()
  policy_uri?: string | null;

  @IsOptional()
  @IsString()
  tos_uri?: string | null;

  @IsOptional()
  @IsString()
  owner?: string | null;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  contacts?: string[] | null;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  allowed_cors_origins?: string[] | null;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  audience?: string[] | null;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  grant_types?: string[] | null;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  response_types?: string[] | null;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  redirect_uris?: string[] | null;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  post_logout_redirect_uris?: string[] | null;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  request_uris?: string[] | null;

  @IsOptional()
  @IsString()
  scope?: string | null;

  @IsOptional()
  @IsString()
  subject_type?: string | null;

  @IsOptional()
  @IsString()
  sector_identifier_uri?: string | null;

  @IsOptional()
  @IsString()
  token_endpoint_auth_method?: string | null;

  @IsOptional()
  @IsString()
  token_endpoint_auth_signing_alg?: string | null;

  @IsOptional()
  @IsString()
  request_object_signing_alg?: string | null;

  @IsOptional()
  @IsString()
  userinfo_signed_response_alg?: string | null;

  @IsOptional()
  @IsObject()
  jwks?: Record<string, unknown> | null;

  @IsOptional()
  @IsString()
  jwks_uri?: string | null;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown> | null;

  @IsOptional()
  @IsString()
  backchannel_logout_uri?: string | null;

  @IsOptional()
  @IsBoolean()
  backchannel_logout_session_required?: boolean | null;

  @IsOptional()
  @IsString()
  frontchannel_logout_uri?: string | null;

  @IsOptional()
  @IsBoolean()
  frontchannel_logout_session_required?: boolean | null;

  @IsOptional()
  @IsString()
  created_at?: string | null;

  @IsOptional()
  @IsString()
  updated_at?: string | null;
}
