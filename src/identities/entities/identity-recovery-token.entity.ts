import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { IdentityEntity } from './identity.entity.js';
import { IdentityRecoveryAddressEntity } from './identity-recovery-address.entity.js';

/**
 * A row of `identity_recovery_tokens`: an admin-issued recovery link. Only HMAC-SHA256 of the token
 * under the first system secret is kept (hex). Goes with its identity and with its address.
 * `used_at` is set by the flow that redeems it.
 */
@Entity({ name: 'identity_recovery_tokens' })
@Index('UQ_identity_recovery_tokens_token_hmac', ['tokenHmac'], { unique: true })
@Index('IDX_identity_recovery_tokens_identity', ['identityId'])
@Index('IDX_identity_recovery_tokens_address', ['recoveryAddressId'])
export class IdentityRecoveryTokenEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_identity_recovery_tokens' })
  id!: string;

  @Column({ name: 'identity_id', type: 'uuid' })
  identityId!: string;

  @ManyToOne(() => IdentityEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'identity_id', foreignKeyConstraintName: 'FK_identity_recovery_tokens_identity' })
  identity?: IdentityEntity;

  @Column({ name: 'recovery_address_id', type: 'uuid' })
  recoveryAddressId!: string;

  @ManyToOne(() => IdentityRecoveryAddressEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'recovery_address_id', foreignKeyConstraintName: 'FK_identity_recovery_tokens_address' })
  recoveryAddress?: IdentityRecoveryAddressEntity;

  @Column({ name: 'token_hmac', type: 'char', length: 64 })
  tokenHmac!: string;

  /** The recovery flow id carried in the link; the flow itself is created when the link is redeemed. */
  @Column({ name: 'flow_id', type: 'uuid' })
  flowId!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
