import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ClientEntity } from '../../clients/entities/client.entity.js';
import type { StoredOidcContext } from './stored-oidc-context.js';
import type { StoredRejection } from './stored-rejection.js';

/**
 * A row of `oauth2_login_requests`: one authorization request waiting for (or answered by) the login
 * app. The challenge, verifier and CSRF value are kept only as SHA-256 (hex); the challenge is also
 * sealed (AES-GCM under SECRETS_SYSTEM) because the consent request shows it as `login_challenge`.
 * The decision columns are filled by accept/reject; `was_used` once the browser redeemed the verifier.
 */
@Entity({ name: 'oauth2_login_requests' })
@Index('UQ_oauth2_login_requests_challenge_hash', ['challengeHash'], { unique: true })
@Index('UQ_oauth2_login_requests_verifier_hash', ['verifierHash'], { unique: true })
@Index('IDX_oauth2_login_requests_client', ['clientId'])
@Index('IDX_oauth2_login_requests_requested_at', ['requestedAt'])
export class LoginRequestEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_oauth2_login_requests' })
  id!: string;

  @Column({ name: 'challenge_hash', type: 'char', length: 64 })
  challengeHash!: string;

  @Column({ name: 'challenge_sealed', type: 'text' })
  challengeSealed!: string;

  /** Set when the login app accepts or rejects: the verifier exists only from then on. */
  @Column({ name: 'verifier_hash', type: 'char', length: 64, nullable: true })
  verifierHash!: string | null;

  @Column({ name: 'csrf_hash', type: 'char', length: 64 })
  csrfHash!: string;

  @Column({ name: 'client_id', type: 'varchar', length: 255 })
  clientId!: string;

  @ManyToOne(() => ClientEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'FK_oauth2_login_requests_client' })
  client?: ClientEntity;

  @Column({ name: 'request_url', type: 'text' })
  requestUrl!: string;

  @Column({ name: 'requested_scope', type: 'jsonb' })
  requestedScope!: string[];

  @Column({ name: 'requested_audience', type: 'jsonb' })
  requestedAudience!: string[];

  @Column({ type: 'jsonb', name: 'oidc_context' })
  oidcContext!: StoredOidcContext;

  /** True when a remembered login session answers this request (the login app may accept at once). */
  @Column({ type: 'boolean' })
  skip!: boolean;

  /** The remembered session's subject when `skip`, then the accepted subject; '' before. */
  @Column({ type: 'varchar', length: 255 })
  subject!: string;

  /** The login session this login continues (skip, or a fresh login in a browser that had one) or starts. */
  @Column({ name: 'login_session_id', type: 'uuid' })
  loginSessionId!: string;

  @Column({ name: 'requested_at', type: 'timestamptz' })
  requestedAt!: Date;

  /** The remembered session's when `skip`, else the time of accept; null before. */
  @Column({ name: 'authenticated_at', type: 'timestamptz', nullable: true })
  authenticatedAt!: Date | null;

  @Column({ name: 'handled_at', type: 'timestamptz', nullable: true })
  handledAt!: Date | null;

  @Column({ type: 'boolean' })
  remember!: boolean;

  /** Seconds; 0 = the cookie lasts as long as the browser session. */
  @Column({ name: 'remember_for', type: 'integer' })
  rememberFor!: number;

  @Column({ type: 'text' })
  acr!: string;

  @Column({ type: 'jsonb' })
  amr!: string[];

  /** Free JSON from the login app, handed to the consent app. */
  @Column({ type: 'jsonb' })
  context!: object;

  @Column({ name: 'force_subject_identifier', type: 'varchar', length: 255 })
  forceSubjectIdentifier!: string;

  /** The login app's rejection; null when accepted or not handled yet. */
  @Column({ type: 'jsonb', nullable: true })
  error!: StoredRejection | null;

  @Column({ name: 'was_used', type: 'boolean' })
  wasUsed!: boolean;
}
