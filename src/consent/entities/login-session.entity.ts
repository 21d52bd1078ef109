import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A row of `oauth2_authentication_sessions`: a login session. `id` is the session id (`sid` in ID
 * tokens, public); the browser holds a different random value in the `oauth2_authentication_session`
 * cookie, kept here only as SHA-256 (`token_hash`), so a `sid` seen by a relying party never opens
 * the session. Only a remembered session (`remember`, not past `expires_at`) lets a later login skip.
 */
@Entity({ name: 'oauth2_authentication_sessions' })
@Index('UQ_oauth2_authentication_sessions_token_hash', ['tokenHash'], { unique: true })
@Index('IDX_oauth2_authentication_sessions_subject', ['subject'])
@Index('IDX_oauth2_authentication_sessions_expires_at', ['expiresAt'])
export class LoginSessionEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_oauth2_authentication_sessions' })
  id!: string;

  /** SHA-256 (hex) of the cookie value; null when the session is not remembered (no cookie). */
  @Column({ name: 'token_hash', type: 'char', length: 64, nullable: true })
  tokenHash!: string | null;

  @Column({ type: 'varchar', length: 255 })
  subject!: string;

  @Column({ name: 'authenticated_at', type: 'timestamptz' })
  authenticatedAt!: Date;

  @Column({ type: 'boolean' })
  remember!: boolean;

  /** End of the remember window; null = no end (`remember_for: 0`, a browser-session cookie). */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;
}
