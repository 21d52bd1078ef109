import { Column, Entity, Index } from 'typeorm';
import { tokenRowColumns } from './token-row.columns.js';

/**
 * A row of `oauth2_refresh_tokens`: only the HMAC part of the token is stored. A used (rotated) refresh
 * token stays, inactive, until it expires, so that its replay is recognised and revokes the whole
 * family (RFC 9700 §4.14.2). Revoking deletes the row.
 */
@Entity({ name: 'oauth2_refresh_tokens' })
@Index('IDX_oauth2_refresh_tokens_request', ['requestId'])
@Index('IDX_oauth2_refresh_tokens_client', ['clientId'])
@Index('IDX_oauth2_refresh_tokens_consent', ['consentId'])
@Index('IDX_oauth2_refresh_tokens_expires_at', ['expiresAt'])
export class RefreshTokenEntity extends tokenRowColumns('oauth2_refresh_tokens') {
  /** False once rotated: presenting it again is a replay. */
  @Column({ name: 'active', type: 'boolean' })
  active!: boolean;
}
