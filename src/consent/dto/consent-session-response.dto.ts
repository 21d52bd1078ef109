import type { ConsentRequestResponseDto } from './consent-request-response.dto.js';

/** Hydra's `previousConsentSession`: one entry of GET /oauth2/auth/sessions/consent. */
export class ConsentSessionResponseDto {
  consent_request!: ConsentRequestResponseDto;
  grant_scope!: string[];
  grant_access_token_audience!: string[];
  session!: { access_token: Record<string, unknown>; id_token: Record<string, unknown> };
  remember!: boolean;
  remember_for!: number;
  handled_at!: string;
}
