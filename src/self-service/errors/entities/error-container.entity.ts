import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A row of `self_service_errors`: the errors a browser was sent to the error UI for (`?error=<id>`). */
@Entity({ name: 'self_service_errors' })
export class ErrorContainerEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_self_service_errors' })
  id!: string;

  @Column({ type: 'jsonb' })
  errors!: Record<string, unknown>[];

  @Column({ name: 'was_seen', type: 'boolean' })
  wasSeen!: boolean;

  @Column({ name: 'seen_at', type: 'timestamptz', nullable: true })
  seenAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
