import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError } from '../common/errors/app-error.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { IdentitiesService } from '../identities/identities.service.js';
import { TuplesService } from '../tuples/tuples.service.js';
import { ConnectionGate } from './connection-gate.js';
import { ConnectionsService } from './connections.service.js';
import { DirectoryEffects, logEntry, type ReceivedEvent } from './directory-effects.js';
import { type DirectoryEvent, parseDelivery } from './directory-event.js';
import { DirectorySyncError, DirectorySyncErrorCode } from './directory-sync.errors.js';
import type { DirectoryConnectionEntity } from './entities/directory-connection.entity.js';
import type { EventOutcome } from './event-outcome.js';
import { SyncLedgerRepository } from './sync-ledger.repository.js';
import { deliveryDigest, isFresh, parseServiceSignature, signedByAny, type ServiceSignature } from './webhook-signature.js';

/** Deliveries of one connection that may wait on one instance while `WEBHOOKS_CONCURRENCY` others apply. */
const MAX_WAITING_DELIVERIES = 256;

/** How many events of a delivery ended each way. */
export type DeliverySummary = Readonly<Record<EventOutcome, number>>;

/**
 * `POST /webhooks/directory-sync/{connection}`, minus HTTP: verify, then apply. The steps:
 * 1. the connection (404 unknown);
 * 2. the signature over the raw body with the current or, in its grace period, the previous secret,
 *    and the timestamp's freshness (401); the envelope (400) — each refusal logged `rejected`;
 * 3. inside the connection's concurrency bound, the delivery is claimed by its (t, s): a replay applies
 *    nothing and is logged `duplicate`;
 * 4. each event in its own transaction (DirectoryEffects); one that fails is logged `failed` and the
 *    rest still apply;
 * 5. caches of changed identities and tuples are dropped, then the caller answers 200.
 */
@Injectable()
export class WebhookReceiver {
  private readonly logger = new Logger('DirectorySync');
  private readonly gate: ConnectionGate;
  private readonly toleranceMs: number;

  constructor(
    private readonly connections: ConnectionsService,
    private readonly effects: DirectoryEffects,
    private readonly ledger: SyncLedgerRepository,
    private readonly identities: IdentitiesService,
    private readonly tuples: TuplesService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.gate = new ConnectionGate(config.webhooks.concurrency, MAX_WAITING_DELIVERIES);
    this.toleranceMs = config.webhooks.toleranceSeconds * 1000;
  }

  async receive(connectionId: string, signatureHeader: string | undefined, body: Buffer): Promise<DeliverySummary> {
    const receivedAt = new Date();
    const { connection, secrets } = await this.connections.forDelivery(connectionId, receivedAt);
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
    const received = events.map((event): ReceivedEvent => ({ connection, event, timestampMs: signature.timestampMs, receivedAt }));
    const summary: Record<EventOutcome, number> = { applied: 0, duplicate: 0, rejected: 0, failed: 0 };
    if (!(await this.ledger.claimDelivery(connection.id, deliveryDigest(signature), receivedAt))) {
      await this.ledger.log(received.map((entry) => logEntry(entry, 'duplicate', null)));
      summary.duplicate = received.length;
      return summary;
    }
    const identities = new Set<string>();
    let tuplesChanged = false;
    for (const entry of received) {
      try {
        const result = await this.effects.apply(entry);
        summary[result.outcome] += 1;
        for (const id of result.identities) identities.add(id);
        tuplesChanged ||= result.tuplesChanged;
      } catch (error) {
        await this.ledger.log([logEntry(entry, 'failed', failureCode(error))]);
        summary.failed += 1;
        if (!(error instanceof AppError))
          this.logger.error({ msg: 'directory event failed', connection_id: connection.id, event: entry.event.kind }, error);
      }
    }
    await this.identities.announceChanged(identities);
    if (tuplesChanged) await this.tuples.changesCommitted();
    return summary;
  }

  private async rejected(connection: DirectoryConnectionEntity, receivedAt: Date, code: DirectorySyncErrorCode): Promise<void> {
    await this.ledger.log([
      {
        connectionId: connection.id,
        receivedAt,
        event: null,
        directoryId: null,
        objectId: null,
        groupId: null,
        outcome: 'rejected',
        errorCode: code,
      },
    ]);
  }
}

/** The machine code of what made an event fail: the domain error's code, else `internal_error`. */
function failureCode(error: unknown): string {
  return error instanceof AppError ? error.code : 'internal_error';
}
