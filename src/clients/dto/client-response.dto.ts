/** The `oAuth2Client` on the wire. `client_secret` only in the create or rotate response. */
export class ClientResponseDto {
  client_id!: string;
  client_name!: string;
  client_secret?: string;
  client_secret_expires_at!: number;
  client_uri!: string;
  logo_uri!: string;
  policy_uri!: string;
  tos_uri!: string;
  owner!: string;
  contacts!: string[];
  allowed_cors_origins!: string[];
  audience!: string[];
  grant_types!: string[];
  response_types!: string[];
  redirect_uris!: string[];
  post_logout_redirect_uris!: string[];
  request_uris!: string[];
  scope!: string;
  subject_type!: string;
  sector_identifier_uri!: string;
  token_endpoint_auth_method!: string;
  token_endpoint_auth_signing_alg!: string;
  request_object_signing_alg!: string;
  userinfo_signed_response_alg!: string;
  jwks?: { keys: Record<string, unknown>[] };
  jwks_uri!: string;
  metadata!: Record<string, unknown>;
  backchannel_logout_uri!: string;
  backchannel_logout_session_required!: boolean;
  frontchannel_logout_uri!: string;
  frontchannel_logout_session_required!: boolean;
  created_at!: string;
  updated_at!: string;
}
