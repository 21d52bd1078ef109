/** Hydra v1.5's `logoutRequest`: GET /oauth2/auth/requests/logout. */
export class LogoutRequestResponseDto {
  subject!: string;
  /** The login session to end. */
  sid!: string;
  request_url!: string;
  /** True when a relying party asked (with an id_token_hint), false when the browser came on its own. */
  rp_initiated!: boolean;
}
