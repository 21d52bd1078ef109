/** How a token family started; kept with every token of the family. */
export type GrantType = 'authorization_code' | 'implicit' | 'client_credentials';

/**
 * What a token row remembers besides its columns (jsonb `session`): everything needed to answer
 * introspection and /userinfo and to mint a new ID token on refresh. Times are seconds since the epoch.
 */
export interface TokenSession {
  readonly grantType: GrantType;
  /** The `sub` of ID tokens and /userinfo: public, pairwise or forced; the client_id for client_credentials. */
  readonly idTokenSubject: string;
  /** Consent's `session.access_token`: the access token's `ext`. */
  readonly accessTokenClaims: Readonly<Record<string, unknown>>;
  /** Consent's `session.id_token`: extra ID-token claims and /userinfo. */
  readonly idTokenClaims: Readonly<Record<string, unknown>>;
  /**
   * What /userinfo answers when the request's `claims` parameter sent some granted claims to the ID
   * token only (or some to /userinfo only); absent: `idTokenClaims`.
   */
  readonly userinfoClaims?: Readonly<Record<string, unknown>>;
  /** '' when the authorization request carried none. */
  readonly nonce: string;
  readonly authTime: number | null;
  /** When the authorization request was made (`rat`). */
  readonly requestedAt: number;
  readonly acr: string;
  readonly amr: readonly string[];
  /** The login session id (`sid`); '' when none. */
  readonly sid: string;
}
