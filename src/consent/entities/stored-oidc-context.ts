/**
 * `oidc_context` as stored (jsonb): the request's OidcContext. Declared here with `object` for the
 * free-form claims because TypeORM's write types cannot walk `unknown`.
 */
export interface StoredOidcContext {
  readonly acr_values?: readonly string[];
  readonly ui_locales?: readonly string[];
  readonly display?: string;
  readonly id_token_hint_claims?: object;
  readonly login_hint?: string;
  readonly claims?: object;
}

/** A jsonb column written as `object` (see above), read back as the JSON object it holds. */
export function asJsonObject(value: object): Record<string, unknown> {
  return value as Record<string, unknown>;
}
