import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { TokenSession } from '../token-session.js';

/**
 * A row of `oauth2_access_tokens`. `signature` is the HMAC part of an opaque token (or the SHA-256 of
 * a JWT access token's signature): the token itself is never stored. Revoking deletes the row. Goes
 * with its client and with its consent (ON DELETE CASCADE); the relations are named by table so that
 * this context imports no other context's entities.
 */
@Entity({ name: 'oauth2_access_tokens' })
// client_credentials tokens (no consent) skip the family and consent indexes: nothing looks them up so.
@Index('IDX_oauth2_access_tokens_request', ['requestId'], { where: '"consent_id" IS NOT NULL' })
@Index('IDX_oauth2_access_tokens_client', ['clientId'])
@Index('IDX_oauth2_access_tokens_consent', ['consentId'], { where: '"consent_id" IS NOT NULL' })
@Index('IDX_oauth2_access_tokens_expires_at', ['expiresAt'])
export class AccessTokenEntity {
  @PrimaryColumn({ name: 'signature', type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_oauth2_access_tokens' })
  signature!: string;

  /** The grant family: every code, access and refresh token that came from one authorization. */
  @Column({ name: 'request_id', type: 'uuid' })
  requestId!: string;

  @Column({ name: 'client_id', type: 'varchar', length: 255 })
  clientId!: string;

  @ManyToOne('clients', { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'FK_oauth2_access_tokens_client' })
  client?: unknown;

  /** The consent the tokens were granted by; null for client_credentials. */
  @Column({ name: 'consent_id', type: 'uuid', nullable: true })
  consentId!: string | null;

  @ManyToOne('oauth2_consent_requests', { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'consent_id', foreignKeyConstraintName: 'FK_oauth2_access_tokens_consent' })
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

  @Column({ name: 'issued_at', type: 'timestamptz' })
  issuedAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
