/** The successful token response (RFC 6749 §5.1; Hydra's `oauth2TokenResponse`). */
export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: 'bearer';
  readonly expires_in: number;
  /** Granted scopes, space-separated (always present, possibly empty, as in Hydra). */
  readonly scope: string;
  readonly refresh_token?: string;
  readonly id_token?: string;
}
