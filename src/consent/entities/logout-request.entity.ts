import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A row of `oauth2_logout_requests`: a logout waiting for the logout app. Challenge and verifier are
 * kept only as SHA-256; the verifier exists once the app accepted. `rp_initiated` when it came with an
 * `id_token_hint` or a `client_id`; `post_logout_redirect_uri` is where the browser ends (already checked, with state).
 */
@Entity({ name: 'oauth2_logout_requests' })
@Index('UQ_oauth2_logout_requests_challenge_hash', ['challengeHash'], { unique: true })
@Index('UQ_oauth2_logout_requests_verifier_hash', ['verifierHash'], { unique: true })
@Index('IDX_oauth2_logout_requests_requested_at', ['requestedAt'])
export class LogoutRequestEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_oauth2_logout_requests' })
  id!: string;

  @Column({ name: 'challenge_hash', type: 'char', length: 64 })
  challengeHash!: string;

  @Column({ name: 'verifier_hash', type: 'char', length: 64, nullable: true })
  verifierHash!: string | null;

  @Column({ type: 'varchar', length: 255 })
  subject!: string;

  /** The login session to end (`sid`); no foreign key: it may be gone by the time the browser returns. */
  @Column({ name: 'session_id', type: 'uuid' })
  sessionId!: string;

  @Column({ name: 'request_url', type: 'text' })
  requestUrl!: string;

  @Column({ name: 'rp_initiated', type: 'boolean' })
  rpInitiated!: boolean;

  @Column({ name: 'post_logout_redirect_uri', type: 'text' })
  postLogoutRedirectUri!: string;

  /** The relying party's `logout_hint`, for the logout app; '' when none. */
  @Column({ name: 'logout_hint', type: 'text' })
  logoutHint!: string;

  /** The relying party's `ui_locales`, for the logout app. */
  @Column({ name: 'ui_locales', type: 'text', array: true })
  uiLocales!: string[];

  @Column({ type: 'boolean' })
  accepted!: boolean;

  @Column({ type: 'boolean' })
  rejected!: boolean;

  @Column({ name: 'was_used', type: 'boolean' })
  wasUsed!: boolean;

  @Column({ name: 'requested_at', type: 'timestamptz' })
  requestedAt!: Date;
}
