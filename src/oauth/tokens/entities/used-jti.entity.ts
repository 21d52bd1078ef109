import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * A row of `oauth2_used_jtis`: the `jti` of a private_key_jwt client assertion already accepted, kept
 * until the assertion expires so that it cannot be replayed (RFC 7523 §3). The jti is stored as its
 * SHA-256 (hex): fixed width whatever the client sends.
 */
@Entity({ name: 'oauth2_used_jtis' })
@Index('IDX_oauth2_used_jtis_expires_at', ['expiresAt'])
export class UsedJtiEntity {
  @PrimaryColumn({ name: 'client_id', type: 'varchar', length: 255, primaryKeyConstraintName: 'PK_oauth2_used_jtis' })
  @ForeignKey('clients', { name: 'FK_oauth2_used_jtis_client', onDelete: 'CASCADE' })
  clientId!: string;

  @PrimaryColumn({ name: 'jti_hash', type: 'char', length: 64, primaryKeyConstraintName: 'PK_oauth2_used_jtis' })
  jtiHash!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
