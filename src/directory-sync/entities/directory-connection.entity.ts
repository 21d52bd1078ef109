import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { DeactivationPolicy } from '../deactivation-policy.js';

/**
 * A row of `directory_sync_connections`: one directory sending webhooks. The signing secret is sealed
 * with the system secret (SecretBox, the row id as associated data); the previous one keeps verifying
 * until `previous_secret_expires_at` after a rotation.
 */
@Entity({ name: 'directory_sync_connections' })
@Index('IDX_directory_sync_connections_created_at_id', ['createdAt', 'id'])
export class DirectoryConnectionEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_directory_sync_connections' })
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** Identity schema of the identities it creates; null = the default schema. */
  @Column({ name: 'schema_id', type: 'varchar', length: 64, nullable: true })
  schemaId!: string | null;

  @Column({ name: 'groups_namespace', type: 'varchar', length: 64 })
  groupsNamespace!: string;

  @Column({ name: 'on_deactivate', type: 'varchar', length: 16 })
  onDeactivate!: DeactivationPolicy;

  @Column({ name: 'secret_sealed', type: 'text', select: false })
  secretSealed!: string;

  @Column({ name: 'previous_secret_sealed', type: 'text', nullable: true, select: false })
  previousSecretSealed!: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
