import { Injectable, Logger } from '@nestjs/common';
import type { WebhooksConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { ConnectionGate } from './connection-gate.js';
import { ConnectionsService } from './connections.service.js';
import { DirectoryEffects, type DeliverySummary } from './directory-effects.js';
import { type DirectoryEvent, parseDelivery } from './directory-event.js';
import { DirectorySyncError, DirectorySyncErrorCode } from './directory-sync.errors.js';
import { DirectorySyncMetrics } from './directory-sync.metrics.js';
import type { DirectoryConnectionEntity } from './entities/directory-connection.entity.js';
import { SyncLedgerRepository } from './sync-ledger.repository.js';
import { deliveryDigest, isFresh, parseServiceSignature, signedByAny, type ServiceSignature } from './webhook-signature.js';

/** Deliveries of one connection that may wait on one instance while `WEBHOOKS_CONCURRENCY` others apply. */
const MAX_WAITING_DELIVERIES = 256;
/** Refusals of one connection for one reason within this window share one `rejected` log entry. */
const REJECTED_LOG_WINDOW_MS = 60_000;

/**
 * `POST /webhooks/directory-sync/{connection}`, minus HTTP: verify, then apply. The steps:
 * 1. the connection (404 unknown);
 * 2. the signature over the raw body with the current or, in its grace period, the previous secret,
 *    and the timestamp's freshness (401); the envelope (400) — each refusal counted in the metrics and
 *    on the connection's `rejected` entry for that reason and minute (a flood adds no rows);
 * 3. inside the connection's concurrency bound, DirectoryEffects applies the delivery in one
 *    transaction: claimed by its (t, s) (a replay applies nothing and is logged `duplicate`), then the
 *    events in one pass, or, when one fails, each behind a savepoint (that one is logged `failed` and
 *    the rest still apply);
 * 4. once committed (the changes were announced inside the transaction), the caller answers 200.
 */
@Injectable()
export class WebhookReceiver {
  private readonly logger = new Logger('DirectorySync');
  private readonly gate: ConnectionGate;
  private readonly toleranceMs: number;
  private readonly metrics = new DirectorySyncMetrics();

  constructor(
    private readonly connections: ConnectionsService,
    private readonly effects: DirectoryEffects,
    private readonly ledger: SyncLedgerRepository,
    @InjectConfig('webhooks') webhooks: WebhooksConfig,
  ) {
    this.gate = new ConnectionGate(webhooks.concurrency, MAX_WAITING_DELIVERIES);
    this.toleranceMs = webhooks.toleranceSeconds * 1000;
  }

  async receive(connectionId: string, signatureHeader: string | undefined, body: Buffer): Promise<DeliverySummary> {
    const receivedAt = new Date();
    const { connection, secrets } = await this.connections.forDelivery(connectionId, receivedAt).catch((error: unknown) => {
      // No connection row to log against: a log line instead (the id as sent, cut short).
      if (error instanceof DirectorySyncError) {
        this.metrics.rejected(error.reason);
        this.logger.warn({ msg: 'webhook for an unknown connection', connection_id: connectionId.slice(0, 64) });
      }
      throw error;
    });
    let signature: ServiceSignature;
    let events: DirectoryEvent[];
    try {
      signature = parseServiceSignature(signatureHeader);
      if (!signedByAny(signature, body, secrets)) throw DirectorySyncError.invalidSignature('it does not match the body');
      if (!isFresh(signature, receivedAt.getTime(), this.toleranceMs)) throw DirectorySyncError.staleTimestamp();
      events = parseDelivery(body);
    } catch (error) {
      if (error instanceof DirectorySyncError) await this.rejected(connection, receivedAt, error.reason);
      throw error;
    }
    return this.gate.run(connection.id, () => this.applyAll(connection, signature, events, receivedAt));
  }

  private async applyAll(
    connection: DirectoryConnectionEntity,
    signature: ServiceSignature,
    events: readonly DirectoryEvent[],
    receivedAt: Date,
  ): Promise<DeliverySummary> {
    const result = await this.effects.applyDelivery({
      connection,
      signatureDigest: deliveryDigest(signature),
      events,
      timestampMs: signature.timestampMs,
      receivedAt,
    });
    return result.summary;
  }

  private async rejected(connection: DirectoryConnectionEntity, receivedAt: Date, code: DirectorySyncErrorCode): Promise<void> {
    this.metrics.rejected(code);
    await this.ledger.logRejected(connection.id, code, receivedAt, REJECTED_LOG_WINDOW_MS);
  }
}
