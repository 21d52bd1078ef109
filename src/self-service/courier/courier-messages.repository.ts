import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CourierMessageStatus } from './courier-message-status.js';
import { CourierMessageEntity } from './entities/courier-message.entity.js';

/** A message claimed for one delivery attempt. */
export interface ClaimedMessage {
  readonly id: string;
  readonly recipient: string;
  readonly template: string;
  readonly subject: string;
  readonly bodyText: string;
  readonly bodyHtml: string;
  /** Attempts so far, this one included. */
  readonly sendCount: number;
}

interface ClaimedRow {
  id: string;
  recipient: string;
  template: string;
  subject: string;
  body_text: string;
  body_html: string;
  send_count: number;
}

/**
 * The `courier_messages` outbox. Claiming is one statement: due queued rows are picked with
 * `FOR UPDATE SKIP LOCKED` (instances never wait on, or take, each other's rows), counted as an
 * attempt, and leased by pushing `next_attempt_at` past the longest an attempt can take. An instance
 * that dies mid-attempt leaves the row to be claimed again when the lease runs out, so nothing is lost;
 * the price is that such a message may be sent twice (at-least-once delivery).
 */
@Injectable()
export class CourierMessagesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts with the caller's transaction when given, so the e-mail exists exactly when the flow step does. */
  async insert(message: CourierMessageEntity, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(CourierMessageEntity, message);
  }

  async claimDue(limit: number, leaseMs: number): Promise<ClaimedMessage[]> {
    const rows: [ClaimedRow[], number] = await this.dataSource.query(
      `UPDATE courier_messages
          SET send_count = send_count + 1,
              next_attempt_at = now() + make_interval(secs => $3::double precision / 1000),
              updated_at = now()
        WHERE id IN (
          SELECT id FROM courier_messages
           WHERE status = $1 AND next_attempt_at <= now()
           ORDER BY next_attempt_at
           LIMIT $2
           FOR UPDATE SKIP LOCKED)
      RETURNING id, recipient, template, subject, body_text, body_html, send_count`,
      [CourierMessageStatus.Queued, limit, leaseMs],
    );
    return rows[0].map((row) => ({
      id: row.id,
      recipient: row.recipient,
      template: row.template,
      subject: row.subject,
      bodyText: row.body_text,
      bodyHtml: row.body_html,
      sendCount: row.send_count,
    }));
  }

  async markSent(id: string): Promise<void> {
    await this.dataSource.manager.update(
      CourierMessageEntity,
      { id },
      { status: CourierMessageStatus.Sent, lastError: null, updatedAt: new Date() },
    );
  }

  /** Back to the queue for another attempt at `nextAttemptAt`. */
  async markFailed(id: string, error: string, nextAttemptAt: Date): Promise<void> {
    await this.dataSource.manager.update(CourierMessageEntity, { id }, { lastError: error, nextAttemptAt, updatedAt: new Date() });
  }

  async markAbandoned(id: string, error: string): Promise<void> {
    await this.dataSource.manager.update(
      CourierMessageEntity,
      { id },
      { status: CourierMessageStatus.Abandoned, lastError: error, updatedAt: new Date() },
    );
  }
}
