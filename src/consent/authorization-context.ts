import type { Client } from '../clients/index.js';

/**
 * The boundary between the authorize endpoint (oauth context) and the login/consent hand-off (consent
 * context). The oauth context validates the authorization request, then calls
 * `ConsentFlowService.advance(context, browser)` until the flow answers `granted`; the consent context
 * never sees HTTP and never imports the oauth context.
 */
export type Prompt = 'none' | 'login' | 'consent' | 'select_account';

/** Passed to the login app in `oidc_context` (Hydra's names; empty members are left out of the JSON). */
export interface OidcContext {
  readonly acr_values?: readonly string[];
  readonly ui_locales?: readonly string[];
  readonly display?: string;
  readonly id_token_hint_claims?: Readonly<Record<string, unknown>>;
  readonly login_hint?: string;
  /** The `claims` parameter (OIDC Core §5.5), so that the consent app can grant what is asked for. */
  readonly claims?: Readonly<Record<string, unknown>>;
}

/** An authorization request the oauth context has already validated (client, redirect URI, scope, audience, PKCE...). */
export interface AuthorizationContext {
  readonly client: Client;
  /**
   * issuer + `/oauth2/auth?` + the request's original query without `login_verifier`/`consent_verifier`
   * (form-posted parameters are folded into it). Accept/reject answers `redirect_to` = this + the verifier.
   */
  readonly requestUrl: string;
  readonly redirectUri: string;
  readonly requestedScope: readonly string[];
  readonly requestedAudience: readonly string[];
  readonly prompt: ReadonlySet<Prompt>;
  readonly maxAgeSeconds: number | undefined;
  readonly oidcContext: OidcContext;
  /**
   * Present when the request carried a valid `id_token_hint`: tells whether a subject (as accepted at
   * login, with the forced subject identifier or '' ) is the hint's `sub`, public or pairwise.
   */
  readonly hintMatches: ((subject: string, forcedSubjectIdentifier: string) => boolean) | undefined;
}

/** What the browser brought: its cookies (by name) and a verifier from the query, if any. */
export interface BrowserState {
  readonly cookies: Readonly<Record<string, string | undefined>>;
  readonly loginVerifier: string | undefined;
  readonly consentVerifier: string | undefined;
}

/** A cookie to set (or clear, with `maxAgeSeconds: 0`); `maxAgeSeconds` undefined = a session cookie. */
export interface CookieInstruction {
  readonly name: string;
  readonly value: string;
  readonly maxAgeSeconds: number | undefined;
}

/** What the user and the consent app granted: everything token issuing needs. */
export interface ConsentGrant {
  /** The handled consent's id; tokens reference it (`oauth2_consent_requests.id`, ON DELETE CASCADE). */
  readonly id: string;
  /** The subject as the login app accepted it. */
  readonly subject: string;
  /** `force_subject_identifier` from login accept, '' when none (overrides the pairwise computation). */
  readonly forcedSubjectIdentifier: string;
  readonly grantedScope: readonly string[];
  readonly grantedAudience: readonly string[];
  /** `session.access_token` from consent accept: lands in the access token's `ext` and in introspection. */
  readonly accessTokenClaims: Readonly<Record<string, unknown>>;
  /** `session.id_token` from consent accept: lands in the ID token and in /userinfo. */
  readonly idTokenClaims: Readonly<Record<string, unknown>>;
  readonly authTime: Date;
  readonly requestedAt: Date;
  /** '' when the login app set none. */
  readonly acr: string;
  readonly amr: readonly string[];
  /** The login session id: the ID token's `sid`. */
  readonly loginSessionId: string;
}

export type ConsentStep =
  | { readonly kind: 'redirect'; readonly location: string; readonly cookies: readonly CookieInstruction[] }
  | { readonly kind: 'granted'; readonly grant: ConsentGrant; readonly cookies: readonly CookieInstruction[] };
