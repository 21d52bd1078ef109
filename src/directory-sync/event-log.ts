import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Page } from '../common/pagination/page.js';
import { PeriodicJob } from '../common/scheduling/periodic-job.js';
import type { WebhooksConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { ConnectionsService } from './connections.service.js';
import type { DirectoryEventEntity } from './entities/directory-event.entity.js';
import type { EventOutcome } from './event-outcome.js';
import { SyncLedgerRepository } from './sync-ledger.repository.js';

/**
 * The event log of each connection, and its retention: entries older than WEBHOOKS_EVENT_RETENTION
 * and replay records that no fresh timestamp can match any more (older than twice WEBHOOKS_TOLERANCE)
 * are deleted every WEBHOOKS_JANITOR_INTERVAL (0 = never; the timer does not keep the process alive).
 */
@Injectable()
export class EventLog implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly janitor = new PeriodicJob(
    new Logger('DirectorySync'),
    { done: 'expired directory-sync log entries deleted', failed: 'directory-sync log purge failed' },
    () => this.purge(),
  );

  constructor(
    private readonly ledger: SyncLedgerRepository,
    private readonly connections: ConnectionsService,
    @InjectConfig('webhooks') private readonly webhooks: WebhooksConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.janitor.start(this.webhooks.janitorIntervalSeconds);
  }

  onApplicationShutdown(): void {
    this.janitor.stop();
  }

  /** 404 when the connection does not exist. */
  async list(
    connectionId: string,
    outcome: EventOutcome | undefined,
    page: Page,
  ): Promise<{ rows: DirectoryEventEntity[]; total: number }> {
    await this.connections.get(connectionId);
    return this.ledger.findEvents(connectionId, outcome, page);
  }

  async purge(now = new Date()): Promise<{ events: number; deliveries: number }> {
    const { eventRetentionSeconds, toleranceSeconds } = this.webhooks;
    return this.ledger.deleteExpired(
      new Date(now.getTime() - eventRetentionSeconds * 1000),
      new Date(now.getTime() - 2 * toleranceSeconds * 1000),
    );
  }
}
