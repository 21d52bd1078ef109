import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { IdentityEntity } from './identity.entity.js';
import { IdentityVerifiableAddressEntity } from './identity-verifiable-address.entity.js';

/**
 * A row of `identity_verification_tokens`: a verification link sent to one verifiable address by one
 * verification flow. Only HMAC-SHA256 of the token under the first system secret is kept (hex).
 * Goes with its identity and with its address. `used_at` is set when the link is followed.
 */
@Entity({ name: 'identity_verification_tokens' })
@Index('UQ_identity_verification_tokens_token_hmac', ['tokenHmac'], { unique: true })
@Index('IDX_identity_verification_tokens_identity', ['identityId'])
@Index('IDX_identity_verification_tokens_address', ['verifiableAddressId'])
export class IdentityVerificationTokenEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_identity_verification_tokens' })
  id!: string;

  @Column({ name: 'identity_id', type: 'uuid' })
  identityId!: string;

  @ManyToOne(() => IdentityEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'identity_id', foreignKeyConstraintName: 'FK_identity_verification_tokens_identity' })
  identity?: IdentityEntity;

  @Column({ name: 'verifiable_address_id', type: 'uuid' })
  verifiableAddressId!: string;

  @ManyToOne(() => IdentityVerifiableAddressEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'verifiable_address_id', foreignKeyConstraintName: 'FK_identity_verification_tokens_address' })
  verifiableAddress?: IdentityVerifiableAddressEntity;

  @Column({ name: 'token_hmac', type: 'char', length: 64 })
  tokenHmac!: string;

  /** The verification flow the link belongs to: the token works only together with it. */
  @Column({ name: 'flow_id', type: 'uuid' })
  flowId!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
