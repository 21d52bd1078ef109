import { Column, Entity, Index } from 'typeorm';
import { challengeRequestColumns } from './challenge-request.columns.js';

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
export class LoginRequestEntity extends challengeRequestColumns('oauth2_login_requests') {
  /** The remembered session's subject when `skip`, then the accepted subject; '' before. */
  @Column({ type: 'varchar', length: 255 })
  subject!: string;

  /** The login session this login continues (skip, or a fresh login in a browser that had one) or starts. */
  @Column({ name: 'login_session_id', type: 'uuid' })
  loginSessionId!: string;

  /** The remembered session's when `skip`, else the time of accept; null before. */
  @Column({ name: 'authenticated_at', type: 'timestamptz', nullable: true })
  authenticatedAt!: Date | null;

  /** Seconds; 0 = the cookie lasts as long as the browser session. */
  @Column({ name: 'remember_for', type: 'integer' })
  rememberFor!: number;
}
