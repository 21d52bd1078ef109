import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { IdentityEntity } from './identity.entity.js';

/**
 * A row of `identity_credentials`: one credential of one type per identity. For `password`, `config`
 * is `{"hashed_password": "<PHC argon2 or bcrypt string>"}` (Kratos' shape); never selected by default.
 */
@Entity({ name: 'identity_credentials' })
@Index('UQ_identity_credentials_identity_type', ['identityId', 'type'], { unique: true })
export class IdentityCredentialEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_identity_credentials' })
  id!: string;

  @Column({ name: 'identity_id', type: 'uuid' })
  identityId!: string;

  @ManyToOne(() => IdentityEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'identity_id', foreignKeyConstraintName: 'FK_identity_credentials_identity' })
  identity?: IdentityEntity;

  @Column({ type: 'varchar', length: 32 })
  type!: string;

  @Column({ type: 'jsonb', select: false })
  config!: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
