import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { addressTokenColumns } from './address-token.columns.js';
import { IdentityVerifiableAddressEntity } from './identity-verifiable-address.entity.js';

/**
 * A row of `identity_verification_tokens`: a verification link sent to one verifiable address by one
 * verification flow (`flow_id`: the token works only together with it). `used_at` is set when the link
 * is followed. Goes with its identity and with its address.
 */
@Entity({ name: 'identity_verification_tokens' })
@Index('UQ_identity_verification_tokens_token_hmac', ['tokenHmac'], { unique: true })
@Index('IDX_identity_verification_tokens_identity', ['identityId'])
@Index('IDX_identity_verification_tokens_address', ['verifiableAddressId'])
export class IdentityVerificationTokenEntity extends addressTokenColumns('identity_verification_tokens') {
  @Column({ name: 'verifiable_address_id', type: 'uuid' })
  verifiableAddressId!: string;

  @ManyToOne(() => IdentityVerifiableAddressEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'verifiable_address_id', foreignKeyConstraintName: 'FK_identity_verification_tokens_address' })
  verifiableAddress?: IdentityVerifiableAddressEntity;
}
