import { Column, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { IdentityEntity } from './identity.entity.js';

/**
 * The columns the two link tables share (`identity_recovery_tokens`, `identity_verification_tokens`):
 * the token's HMAC-SHA256 under the first system secret (hex; the token itself is never kept), its
 * identity, its flow, expiry and use. A function of the table, because the key and constraint names
 * carry it; each table adds the column naming its kind of address.
 */
export function addressTokenColumns(table: string) {
  abstract class AddressTokenColumns {
    @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: `PK_${table}` })
    id!: string;

    @Column({ name: 'identity_id', type: 'uuid' })
    identityId!: string;

    @ManyToOne(() => IdentityEntity, { onDelete: 'CASCADE', nullable: false })
    @JoinColumn({ name: 'identity_id', foreignKeyConstraintName: `FK_${table}_identity` })
    identity?: IdentityEntity;

    @Column({ name: 'token_hmac', type: 'char', length: 64 })
    tokenHmac!: string;

    @Column({ name: 'flow_id', type: 'uuid' })
    flowId!: string;

    @Column({ name: 'expires_at', type: 'timestamptz' })
    expiresAt!: Date;

    @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
    usedAt!: Date | null;

    @Column({ name: 'created_at', type: 'timestamptz' })
    createdAt!: Date;
  }
  return AddressTokenColumns;
}
