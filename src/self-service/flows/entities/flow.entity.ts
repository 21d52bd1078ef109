import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import type { FlowKind, FlowType } from '../flow-kind.js';
import type { UiContainer } from '../../ui/ui-container.js';

/**
 * A row of `self_service_flows`: one flow of any kind (login, registration, settings, recovery,
 * verification). `ui` is the form as last rendered; `context` holds kind-specific internal state that
 * is never serialized (e.g. which address a recovery flow sent to). `csrf_token_hash` is the SHA-256
 * of the form CSRF token the flow was issued with (browser flows only).
 */
@Entity({ name: 'self_service_flows' })
// Partial: only settings flows (and redeemed recovery flows) name an identity (migration 1763800009000).
@Index('IDX_self_service_flows_identity', ['identityId'], { where: '"identity_id" IS NOT NULL' })
@Index('IDX_self_service_flows_expires_at', ['expiresAt'])
export class FlowEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_self_service_flows' })
  id!: string;

  @Column({ type: 'varchar', length: 16 })
  kind!: FlowKind;

  @Column({ type: 'varchar', length: 8 })
  type!: FlowType;

  /** `show_form`/`success` (settings), `choose_method`/`sent_email`/`passed_challenge` (recovery, verification). */
  @Column({ type: 'varchar', length: 32, nullable: true })
  state!: string | null;

  /** The method last submitted (`password`, `profile`, `link`); null until one was used. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  active!: string | null;

  @Column({ type: 'boolean' })
  forced!: boolean;

  @Column({ name: 'request_url', type: 'text' })
  requestUrl!: string;

  /** An allow-listed `return_to` given when the flow started. */
  @Column({ name: 'return_to', type: 'text', nullable: true })
  returnTo!: string | null;

  @Column({ type: 'jsonb' })
  ui!: UiContainer;

  @Column({ name: 'csrf_token_hash', type: 'char', length: 64, nullable: true })
  csrfTokenHash!: string | null;

  /** The identity a settings (or a redeemed recovery) flow acts on. */
  @Column({ name: 'identity_id', type: 'uuid', nullable: true })
  @ForeignKey('identities', { name: 'FK_self_service_flows_identity', onDelete: 'CASCADE' })
  identityId!: string | null;

  @Column({ type: 'jsonb' })
  context!: Record<string, unknown>;

  @Column({ name: 'issued_at', type: 'timestamptz' })
  issuedAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
