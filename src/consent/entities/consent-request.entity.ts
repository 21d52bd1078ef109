import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { challengeRequestColumns } from './challenge-request.columns.js';
import { LoginSessionEntity } from './login-session.entity.js';

/**
 * A row of `oauth2_consent_requests`: a consent request and, once the consent app answered, its
 * decision. A granted and redeemed row is a consent session: tokens reference it by `id` (ON DELETE
 * CASCADE), so deleting the row revokes them; a remembered one lets later requests skip the consent
 * app. Challenge, verifier and CSRF value are kept only as SHA-256 (the challenge also sealed, for the
 * consent-session list); the login challenge is the login request's sealed copy. `requested_at` is the
 * login request's: the whole login + consent flow shares one lifetime.
 */
@Entity({ name: 'oauth2_consent_requests' })
@Index('UQ_oauth2_consent_requests_challenge_hash', ['challengeHash'], { unique: true })
@Index('UQ_oauth2_consent_requests_verifier_hash', ['verifierHash'], { unique: true })
@Index('IDX_oauth2_consent_requests_subject_client', ['subject', 'clientId'])
@Index('IDX_oauth2_consent_requests_client', ['clientId'])
@Index('IDX_oauth2_consent_requests_login_session', ['loginSessionId'])
@Index('IDX_oauth2_consent_requests_requested_at', ['requestedAt'])
export class ConsentRequestEntity extends challengeRequestColumns('oauth2_consent_requests') {
  @Column({ type: 'varchar', length: 255 })
  subject!: string;

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

  @Column({ name: 'authenticated_at', type: 'timestamptz' })
  authenticatedAt!: Date;

  @Column({ name: 'granted_scope', type: 'jsonb' })
  grantedScope!: string[];

  @Column({ name: 'granted_audience', type: 'jsonb' })
  grantedAudience!: string[];

  /** Seconds from `requested_at`; 0 = remembered until revoked. */
  @Column({ name: 'remember_for', type: 'integer' })
  rememberFor!: number;

  /** `session.access_token` of accept: extra claims of the access token. */
  @Column({ name: 'session_access_token', type: 'jsonb' })
  sessionAccessToken!: object;

  /** `session.id_token` of accept: extra claims of the ID token and /userinfo. */
  @Column({ name: 'session_id_token', type: 'jsonb' })
  sessionIdToken!: object;
}
