import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { DirectoryConnectionEntity } from './directory-connection.entity.js';

/**
 * A row of `directory_sync_deliveries`: an accepted signature (SHA-256 of `t` and `s`), so that a replay
 * inside the tolerance window applies nothing. Rows older than twice the tolerance can never match a
 * fresh timestamp again and are deleted.
 */
@Entity({ name: 'directory_sync_deliveries' })
@Index('IDX_directory_sync_deliveries_received_at', ['receivedAt'])
export class DirectoryDeliveryEntity {
  @PrimaryColumn({ name: 'connection_id', type: 'uuid', primaryKeyConstraintName: 'PK_directory_sync_deliveries' })
  connectionId!: string;

  @PrimaryColumn({ name: 'signature_digest', type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_directory_sync_deliveries' })
  signatureDigest!: string;

  @ManyToOne(() => DirectoryConnectionEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'connection_id', foreignKeyConstraintName: 'FK_directory_sync_deliveries_connection' })
  connection?: DirectoryConnectionEntity;

  @Column({ name: 'received_at', type: 'timestamptz' })
  receivedAt!: Date;
}
