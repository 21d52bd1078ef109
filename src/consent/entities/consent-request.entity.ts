import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ClientEntity } from '../../clients/entities/client.entity.js';
import { LoginSessionEntity } from './login-session.entity.js';
import type { StoredOidcContext } from './stored-oidc-context.js';
import type { StoredRejection } from './stored-rejection.js';

/**
 * A row of `oauth2_consent_requests`: a consent request and, once the consent app answered, its
 * decision. A granted and redeemed row is a consent session: tokens reference it by `id` (ON DELETE
 * CASCADE), so deleting the row revokes them; a remembered one lets later requests skip the consent
 * app. Challenge, verifier and CSRF value are kept only as SHA-256 (the challenge also sealed, for the
 * consent-session list); the login challenge is the login request's sealed copy.
 */
@Entity({ name: 'oauth2_consent_requests' })
@Index('UQ_oauth2_consent_requests_challenge_hash', ['challengeHash'], { unique: true })
@Index('UQ_oauth2_consent_requests_verifier_hash', ['verifierHash'], { unique: true })
@Index('IDX_oauth2_consent_requests_subject_client', ['subject', 'clientId'])
@Index('IDX_oauth2_consent_requests_client', ['clientId'])
@Index('IDX_oauth2_consent_requests_login_session', ['loginSessionId'])
@Index('IDX_oauth2_consent_requests_requested_at', ['requestedAt'])
export class ConsentRequestEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_oauth2_consent_requests' })
  id!: string;

  @Column({ name: 'challenge_hash', type: 'char', length: 64 })
  challengeHash!: string;

  @Column({ name: 'challenge_sealed', type: 'text' })
  challengeSealed!: string;

  @Column({ name: 'verifier_hash', type: 'char', length: 64, nullable: true })
  verifierHash!: string | null;

  @Column({ name: 'csrf_hash', type: 'char', length: 64 })
  csrfHash!: string;

  @Column({ name: 'client_id', type: 'varchar', length: 255 })
  clientId!: string;

  @ManyToOne(() => ClientEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'FK_oauth2_consent_requests_client' })
  client?: ClientEntity;

  @Column({ type: 'varchar', length: 255 })
  subject!: string;

  @Column({ name: 'force_subject_identifier', type: 'varchar', length: 255 })
  forceSubjectIdentifier!: string;

  @Column({ name: 'request_url', type: 'text' })
  requestUrl!: string;

  @Column({ name: 'requested_scope', type: 'jsonb' })
  requestedScope!: string[];

  @Column({ name: 'requested_audience', type: 'jsonb' })
  requestedAudience!: string[];

  @Column({ name: 'oidc_context', type: 'jsonb' })
  oidcContext!: StoredOidcContext;

  /** True when a remembered consent covers the request (the consent app may accept at once). */
  @Column({ type: 'boolean' })
  skip!: boolean;

  @Column({ type: 'text' })
  acr!: string;

  @Column({ type: 'jsonb' })
  amr!: string[];

  /** The login app's `context`, handed on to the consent app. */
  @Column({ type: 'jsonb' })
  context!: object;

  @Column({ name: 'login_request_id', type: 'uuid' })
  loginRequestId!: string;

  /** The login request's sealed challenge (associated data: the login request id). */
  @Column({ name: 'login_challenge_sealed', type: 'text' })
  loginChallengeSealed!: string;

  /** Null once the login session is gone (logout, revocation, janitor). */
  @Column({ name: 'login_session_id', type: 'uuid', nullable: true })
  loginSessionId!: string | null;

  @ManyToOne(() => LoginSessionEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'login_session_id', foreignKeyConstraintName: 'FK_oauth2_consent_requests_login_session' })
  loginSession?: LoginSessionEntity | null;

  /** The login request's: the whole login + consent flow shares one lifetime. */
  @Column({ name: 'requested_at', type: 'timestamptz' })
  requestedAt!: Date;

  @Column({ name: 'authenticated_at', type: 'timestamptz' })
  authenticatedAt!: Date;

  @Column({ name: 'handled_at', type: 'timestamptz', nullable: true })
  handledAt!: Date | null;

  @Column({ name: 'granted_scope', type: 'jsonb' })
  grantedScope!: string[];

  @Column({ name: 'granted_audience', type: 'jsonb' })
  grantedAudience!: string[];

  @Column({ type: 'boolean' })
  remember!: boolean;

  /** Seconds from `requested_at`; 0 = remembered until revoked. */
  @Column({ name: 'remember_for', type: 'integer' })
  rememberFor!: number;

  /** `session.access_token` of accept: extra claims of the access token. */
  @Column({ name: 'session_access_token', type: 'jsonb' })
  sessionAccessToken!: object;

  /** `session.id_token` of accept: extra claims of the ID token and /userinfo. */
  @Column({ name: 'session_id_token', type: 'jsonb' })
  sessionIdToken!: object;

  @Column({ type: 'jsonb', nullable: true })
  error!: StoredRejection | null;

  @Column({ name: 'was_used', type: 'boolean' })
  wasUsed!: boolean;
}
