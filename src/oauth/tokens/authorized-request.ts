import type { Client } from '../../clients/index.js';
import type { ConsentGrant } from '../../consent/index.js';
import type { ClaimsRequest } from './claims-request.js';

export type ResponseType = 'code' | 'token' | 'id_token';

/**
 * An authorization request that has passed validation and whose login and consent are done: what the
 * authorize endpoint hands to token issuing (`AuthorizeResponseIssuer.issue`) to get the parameters of
 * its redirect.
 */
export interface AuthorizedRequest {
  readonly client: Client;
  readonly redirectUri: string;
  readonly responseTypes: ReadonlySet<ResponseType>;
  readonly state: string | undefined;
  readonly nonce: string | undefined;
  /** PKCE (S256 only); undefined when the request carried none. */
  readonly codeChallenge: string | undefined;
  /** The `claims` parameter, when given: where each granted claim goes. */
  readonly claimsRequest: ClaimsRequest | undefined;
  readonly grant: ConsentGrant;
}

/**
 * The parameters of the authorization response, before `state` is added: `code`, `access_token`,
 * `token_type`, `expires_in`, `scope`, `id_token`, each present when the response type asks for it.
 */
export type AuthorizeResponseParameters = Readonly<Record<string, string>>;
