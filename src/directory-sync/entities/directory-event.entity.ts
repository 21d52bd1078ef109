import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { EventOutcome } from '../event-outcome.js';
import { DirectoryConnectionEntity } from './directory-connection.entity.js';

/** A row of `directory_sync_events`: the log of what each received event did. No body is kept. */
@Entity({ name: 'directory_sync_events' })
@Index('IDX_directory_sync_events_connection_received', ['connectionId', 'receivedAt', 'id'])
@Index('IDX_directory_sync_events_received_at', ['receivedAt'])
export class DirectoryEventEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_directory_sync_events' })
  id!: string;

  @Column({ name: 'connection_id', type: 'uuid' })
  connectionId!: string;

  @ManyToOne(() => DirectoryConnectionEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'connection_id', foreignKeyConstraintName: 'FK_directory_sync_events_connection' })
  connection?: DirectoryConnectionEntity;

  @Column({ name: 'received_at', type: 'timestamptz' })
  receivedAt!: Date;

  /** The event kind; null when the delivery was rejected before its body was read. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  event!: string | null;

  @Column({ name: 'directory_id', type: 'varchar', length: 255, nullable: true })
  directoryId!: string | null;

  /** `data.id`: the directory user or group the event is about. */
  @Column({ name: 'object_id', type: 'varchar', length: 255, nullable: true })
  objectId!: string | null;

  /** For membership events, the group. */
  @Column({ name: 'group_id', type: 'varchar', length: 255, nullable: true })
  groupId!: string | null;

  @Column({ type: 'varchar', length: 16 })
  outcome!: EventOutcome;

  @Column({ name: 'error_code', type: 'varchar', length: 64, nullable: true })
  errorCode!: string | null;

  /** How many refusals a `rejected` entry stands for (one entry per connection, reason and minute); 1 otherwise. */
  @Column({ type: 'integer', default: 1 })
  count!: number;
}
