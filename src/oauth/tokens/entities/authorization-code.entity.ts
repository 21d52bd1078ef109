import { Column, Entity, Index } from 'typeorm';
import { tokenRowColumns } from './token-row.columns.js';

/**
 * A row of `oauth2_authorization_codes`: only the HMAC part of the code is stored. A redeemed code stays,
 * inactive, until it expires, so that a second redemption is recognised and revokes every token issued
 * from it (RFC 6749 §4.1.2).
 */
@Entity({ name: 'oauth2_authorization_codes' })
@Index('IDX_oauth2_authorization_codes_client', ['clientId'])
@Index('IDX_oauth2_authorization_codes_consent', ['consentId'])
@Index('IDX_oauth2_authorization_codes_expires_at', ['expiresAt'])
export class AuthorizationCodeEntity extends tokenRowColumns('oauth2_authorization_codes') {
  /** False once redeemed. */
  @Column({ name: 'active', type: 'boolean' })
  active!: boolean;

  /** The redirect URI the code was sent to; the token request must repeat it. */
  @Column({ name: 'redirect_uri', type: 'text' })
  redirectUri!: string;

  /** PKCE S256 challenge; null when the authorization request carried none. */
  @Column({ name: 'code_challenge', type: 'text', nullable: true })
  codeChallenge!: string | null;
}
