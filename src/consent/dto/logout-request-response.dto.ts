/** Hydra v1.5's `logoutRequest`: GET /oauth2/auth/requests/logout. */
export class LogoutRequestResponseDto {
  subject!: string;
  /** The login session to end. */
  sid!: string;
  request_url!: string;
  /** True when a relying party asked (with an id_token_hint or its client_id), false when the browser came on its own. */
  rp_initiated!: boolean;
  /** The relying party's `logout_hint` (RP-Initiated Logout 1.0 §2), left out when none. */
  logout_hint?: string;
  /** The relying party's `ui_locales`, left out when none. */
  ui_locales?: string[];
}
