/** `oidc_context` of login and consent requests; members the request did not carry are left out (Hydra's omitempty). */
export class OidcContextResponseDto {
  acr_values?: string[];
  ui_locales?: string[];
  display?: string;
  id_token_hint_claims?: Record<string, unknown>;
  login_hint?: string;
  /** The `claims` request parameter (`id_token` and `userinfo` members), when the request carried one. */
  claims?: Record<string, unknown>;
}
