import { Module } from '@nestjs/common';
import { IdentitiesModule } from '../identities/index.js';
import { TuplesModule } from '../tuples/index.js';
import { ConnectionsAdminController } from './connections-admin.controller.js';
import { ConnectionsRepository } from './connections.repository.js';
import { ConnectionsService } from './connections.service.js';
import { DirectoryEffects } from './directory-effects.js';
import { DirectorySyncWebhookRoute } from './directory-sync-webhook.route.js';
import { EventLog } from './event-log.js';
import { SyncLedgerRepository } from './sync-ledger.repository.js';
import { WebhookReceiver } from './webhook-receiver.js';

/**
 * Directory sync: connections (admin), the signed webhook receiver (public), its effects on
 * identities and group tuples, and the event log. Calls identities and tuples through their services.
 */
@Module({
  imports: [IdentitiesModule, TuplesModule],
  controllers: [ConnectionsAdminController],
  providers: [
    ConnectionsRepository,
    ConnectionsService,
    DirectoryEffects,
    DirectorySyncWebhookRoute,
    EventLog,
    SyncLedgerRepository,
    WebhookReceiver,
  ],
})
export class DirectorySyncModule {}
