import { Column, Entity, ForeignKey, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { DirectoryConnectionEntity } from './directory-connection.entity.js';

/**
 * A row of `directory_sync_users`: which identity a directory user is. An identity has at most one
 * link. When the identity is deleted the link stays with `identity_id` null, so that an older event
 * for the user arriving late cannot bring it back (`last_event_at` orders them).
 */
@Entity({ name: 'directory_sync_users' })
@Index('UQ_directory_sync_users_identity', ['identityId'], { unique: true })
export class DirectoryUserLinkEntity {
  @PrimaryColumn({ name: 'connection_id', type: 'uuid', primaryKeyConstraintName: 'PK_directory_sync_users' })
  connectionId!: string;

  @PrimaryColumn({ name: 'directory_user_id', type: 'varchar', length: 255, primaryKeyConstraintName: 'PK_directory_sync_users' })
  directoryUserId!: string;

  @ManyToOne(() => DirectoryConnectionEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'connection_id', foreignKeyConstraintName: 'FK_directory_sync_users_connection' })
  connection?: DirectoryConnectionEntity;

  @Column({ name: 'identity_id', type: 'uuid', nullable: true })
  @ForeignKey('identities', { name: 'FK_directory_sync_users_identity', onDelete: 'SET NULL' })
  identityId!: string | null;

  /** The directory's own record of the user (SCIM), kept here rather than in traits. */
  @Column({ type: 'jsonb', nullable: true })
  raw!: object | null;

  /** The signature timestamp (ms) of the last event applied to this user. */
  @Column({ name: 'last_event_at', type: 'bigint' })
  lastEventAt!: string;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
