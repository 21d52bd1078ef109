import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { addressTokenColumns } from './address-token.columns.js';
import { IdentityRecoveryAddressEntity } from './identity-recovery-address.entity.js';

/**
 * A row of `identity_recovery_tokens`: an admin-issued recovery link, for one recovery address. Its
 * `flow_id` is the recovery flow id carried in the link; the flow itself is created when the link is
 * redeemed, which sets `used_at`. Goes with its identity and with its address.
 */
@Entity({ name: 'identity_recovery_tokens' })
@Index('UQ_identity_recovery_tokens_token_hmac', ['tokenHmac'], { unique: true })
@Index('IDX_identity_recovery_tokens_identity', ['identityId'])
@Index('IDX_identity_recovery_tokens_address', ['recoveryAddressId'])
export class IdentityRecoveryTokenEntity extends addressTokenColumns('identity_recovery_tokens') {
  @Column({ name: 'recovery_address_id', type: 'uuid' })
  recoveryAddressId!: string;

  @ManyToOne(() => IdentityRecoveryAddressEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'recovery_address_id', foreignKeyConstraintName: 'FK_identity_recovery_tokens_address' })
  recoveryAddress?: IdentityRecoveryAddressEntity;
}
