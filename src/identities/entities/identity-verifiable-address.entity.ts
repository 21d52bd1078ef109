import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { IdentityEntity } from './identity.entity.js';

/** A row of `identity_verifiable_addresses`; (via, value) is unique across all identities. */
@Entity({ name: 'identity_verifiable_addresses' })
@Index('UQ_identity_verifiable_addresses_via_value', ['via', 'value'], { unique: true })
@Index('IDX_identity_verifiable_addresses_identity', ['identityId'])
export class IdentityVerifiableAddressEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_identity_verifiable_addresses' })
  id!: string;

  @Column({ name: 'identity_id', type: 'uuid' })
  identityId!: string;

  @ManyToOne(() => IdentityEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'identity_id', foreignKeyConstraintName: 'FK_identity_verifiable_addresses_identity' })
  identity?: IdentityEntity;

  @Column({ type: 'varchar', length: 16 })
  via!: string;

  @Column({ type: 'text' })
  value!: string;

  @Column({ type: 'boolean' })
  verified!: boolean;

  @Column({ name: 'verified_at', type: 'timestamptz', nullable: true })
  verifiedAt!: Date | null;

  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
