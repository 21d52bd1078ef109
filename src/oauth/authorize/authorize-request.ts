import type { Client } from '../../clients/index.js';
import type { OidcContext, Prompt } from '../../consent/index.js';
import type { ResponseType } from '../tokens/authorized-request.js';
import type { ClaimsRequest } from '../tokens/claims-request.js';
import type { ResponseMode } from './response-mode.js';

/** An authorization request that passed every check that needs no I/O (see authorize-request.validator.ts). */
export interface ValidAuthorizeRequest {
  readonly client: Client;
  readonly redirectUri: string;
  readonly responseTypes: ReadonlySet<ResponseType>;
  readonly responseMode: ResponseMode;
  readonly state: string;
  readonly nonce: string | undefined;
  readonly scope: readonly string[];
  readonly audience: readonly string[];
  readonly prompt: ReadonlySet<Prompt>;
  readonly maxAgeSeconds: number | undefined;
  /** S256 PKCE challenge; undefined when none was sent (or the response type has no code). */
  readonly codeChallenge: string | undefined;
  /** The raw `id_token_hint`, verified next (it needs the signing keys). */
  readonly idTokenHint: string | undefined;
  /** The `claims` parameter, checked; undefined when absent. */
  readonly claims: ClaimsRequest | undefined;
  /** `oidc_context` for the login app, before `id_token_hint_claims` are known. */
  readonly oidcContext: OidcContext;
}

/** Where an error goes once the redirect URI is known. */
export interface ErrorDestination {
  readonly redirectUri: string;
  readonly responseMode: ResponseMode;
  readonly state: string | undefined;
}
