import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { DirectoryConnectionEntity } from './directory-connection.entity.js';

/** A row of `directory_sync_groups`: a directory group's name, for display; its members are relation tuples. */
@Entity({ name: 'directory_sync_groups' })
export class DirectoryGroupLinkEntity {
  @PrimaryColumn({ name: 'connection_id', type: 'uuid', primaryKeyConstraintName: 'PK_directory_sync_groups' })
  connectionId!: string;

  @PrimaryColumn({ name: 'directory_group_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_directory_sync_groups' })
  directoryGroupId!: string;

  @ManyToOne(() => DirectoryConnectionEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'connection_id', foreignKeyConstraintName: 'FK_directory_sync_groups_connection' })
  connection?: DirectoryConnectionEntity;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
