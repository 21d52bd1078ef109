import type { ClientResponseDto } from '../../clients/index.js';
import type { OidcContextResponseDto } from './oidc-context-response.dto.js';

/** The seed's `consentRequest`: GET /oauth2/auth/requests/consent, and inside each consent session. */
export class ConsentRequestResponseDto {
  challenge!: string;
  requested_scope!: string[];
  requested_access_token_audience!: string[];
  /** True when a remembered consent covers the request: accept at once. */
  skip!: boolean;
  subject!: string;
  oidc_context!: OidcContextResponseDto;
  /** The client, without its secret. */
  client!: ClientResponseDto;
  request_url!: string;
  login_challenge!: string;
  /** '' once the login session has ended. */
  login_session_id!: string;
  acr!: string;
  amr!: string[];
  /** The login app's `context` from login accept. */
  context!: Record<string, unknown>;
}
