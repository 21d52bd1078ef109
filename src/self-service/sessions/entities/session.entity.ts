import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** One completed authentication step of a session (`password` at login, again at a `refresh`). */
export interface AuthenticationMethod {
  readonly method: string;
  readonly completed_at: string;
}

/**
 * A row of `self_service_sessions`. The token (cookie value or `session_token`) is never stored: only
 * its SHA-256 (`token_hash`). Valid while `active` and before `expires_at`; goes with its identity.
 */
@Entity({ name: 'self_service_sessions' })
@Index('UQ_self_service_sessions_token_hash', ['tokenHash'], { unique: true })
@Index('IDX_self_service_sessions_identity', ['identityId'])
export class SessionEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_self_service_sessions' })
  id!: string;

  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ name: 'identity_id', type: 'uuid' })
  @ForeignKey('identities', { name: 'FK_self_service_sessions_identity', onDelete: 'CASCADE' })
  identityId!: string;

  @Column({ type: 'boolean' })
  active!: boolean;

  @Column({ name: 'issued_at', type: 'timestamptz' })
  issuedAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'authenticated_at', type: 'timestamptz' })
  authenticatedAt!: Date;

  @Column({ name: 'authentication_methods', type: 'jsonb' })
  authenticationMethods!: AuthenticationMethod[];

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
