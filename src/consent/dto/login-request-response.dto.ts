import type { ClientResponseDto } from '../../clients/index.js';
import type { OidcContextResponseDto } from './oidc-context-response.dto.js';

/** Hydra's `loginRequest`: GET /oauth2/auth/requests/login. */
export class LoginRequestResponseDto {
  challenge!: string;
  requested_scope!: string[];
  requested_access_token_audience!: string[];
  /** True when a remembered login session answers: accept with `subject` at once. */
  skip!: boolean;
  /** The remembered session's subject when `skip`, else ''. */
  subject!: string;
  oidc_context!: OidcContextResponseDto;
  /** The client, without its secret. */
  client!: ClientResponseDto;
  request_url!: string;
  /** The login session id (`sid` of the ID token). */
  session_id!: string;
}
