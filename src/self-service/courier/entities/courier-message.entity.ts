import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { CourierMessageStatus } from '../courier-message-status.js';

/**
 * A row of `courier_messages`: the outbox the dispatcher sends from. The bodies hold links with
 * recovery and verification tokens, so they are sealed (AES-256-GCM under SECRETS_SYSTEM, bound to the
 * row id) and opened only to be handed to the SMTP server.
 */
@Entity({ name: 'courier_messages' })
@Index('IDX_courier_messages_status_next_attempt_at', ['status', 'nextAttemptAt'])
export class CourierMessageEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_courier_messages' })
  id!: string;

  @Column({ type: 'text' })
  recipient!: string;

  /** Which template produced it, e.g. `recovery_valid`. */
  @Column({ type: 'varchar', length: 64 })
  template!: string;

  @Column({ type: 'text' })
  subject!: string;

  /** Sealed plain-text body. */
  @Column({ name: 'body_text', type: 'text' })
  bodyText!: string;

  /** Sealed HTML body. */
  @Column({ name: 'body_html', type: 'text' })
  bodyHtml!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: CourierMessageStatus;

  /** Attempts made so far (counted when an attempt starts). */
  @Column({ name: 'send_count', type: 'integer' })
  sendCount!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz' })
  nextAttemptAt!: Date;

  /** Why the last attempt failed; null once sent. */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
