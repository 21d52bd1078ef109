import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { TokenSession } from '../token-session.js';

/**
 * A row of `oauth2_authorization_codes`: only the HMAC part of the code is stored. A redeemed code stays,
 * inactive, until it expires, so that a second redemption is recognised and revokes every token issued
 * from it (RFC 6749 §4.1.2). Goes with its client and its consent.
 */
@Entity({ name: 'oauth2_authorization_codes' })
@Index('IDX_oauth2_authorization_codes_client', ['clientId'])
@Index('IDX_oauth2_authorization_codes_consent', ['consentId'])
@Index('IDX_oauth2_authorization_codes_expires_at', ['expiresAt'])
export class AuthorizationCodeEntity {
  @PrimaryColumn({ name: 'signature', type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_oauth2_authorization_codes' })
  signature!: string;

  /** The grant family: every code, access and refresh token that came from one authorization. */
  @Column({ name: 'request_id', type: 'uuid' })
  requestId!: string;

  @Column({ name: 'client_id', type: 'varchar', length: 255 })
  clientId!: string;

  @ManyToOne('clients', { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'FK_oauth2_authorization_codes_client' })
  client?: unknown;

  /** The consent the tokens were granted by; null for client_credentials. */
  @Column({ name: 'consent_id', type: 'uuid', nullable: true })
  consentId!: string | null;

  @ManyToOne('oauth2_consent_requests', { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'consent_id', foreignKeyConstraintName: 'FK_oauth2_authorization_codes_consent' })
  consent?: unknown;

  /** The local subject (the client_id for client_credentials). */
  @Column({ name: 'subject', type: 'text' })
  subject!: string;

  /** Granted scopes, joined by single spaces. */
  @Column({ name: 'scope', type: 'text' })
  scope!: string;

  @Column({ name: 'audience', type: 'jsonb' })
  audience!: string[];

  @Column({ name: 'session', type: 'jsonb' })
  session!: TokenSession;

  /** False once redeemed. */
  @Column({ name: 'active', type: 'boolean' })
  active!: boolean;

  /** The redirect URI the code was sent to; the token request must repeat it. */
  @Column({ name: 'redirect_uri', type: 'text' })
  redirectUri!: string;

  /** PKCE S256 challenge; null when the authorization request carried none. */
  @Column({ name: 'code_challenge', type: 'text', nullable: true })
  codeChallenge!: string | null;

  @Column({ name: 'issued_at', type: 'timestamptz' })
  issuedAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
