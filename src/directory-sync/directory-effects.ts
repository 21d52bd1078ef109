import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../common/errors/app-error.js';
import type { EntityManager } from 'typeorm';
import type { WebhooksConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { IdentitiesService, type ProvisionedIdentity } from '../identities/index.js';
import { TuplesService } from '../tuples/index.js';
import type { DirectoryEvent } from './directory-event.js';
import { DirectorySyncError } from './directory-sync.errors.js';
import type { DirectoryConnectionEntity } from './entities/directory-connection.entity.js';
import { DirectoryUserLinkEntity } from './entities/directory-user-link.entity.js';
import type { EventOutcome } from './event-outcome.js';
import { SyncLedgerRepository } from './sync-ledger.repository.js';
import { defaultTraitsMapping, mapTraits, type TraitsMapping } from './traits-mapping.js';

/** The relation of a group's members: `<groups namespace>:<group id>#member@<identity id>`. */
const MEMBER = 'member';

/** What applying one event did, for its log entry and for the caches to drop after the commit. */
interface EffectResult {
  readonly outcome: Extract<EventOutcome, 'applied' | 'duplicate'>;
  readonly errorCode: string | null;
  /** Identities written (updated, deactivated, deleted): caches drop them once committed. */
  readonly identities: readonly string[];
  readonly tuplesChanged: boolean;
}

/** One event as it arrived: which delivery, when, signed at which timestamp. */
interface ReceivedEvent {
  readonly connection: DirectoryConnectionEntity;
  readonly event: DirectoryEvent;
  /** The delivery's signature timestamp (ms): events about one user apply in this order. */
  readonly timestampMs: number;
  readonly receivedAt: Date;
}

/** A verified delivery: its events, and the digest of its (t, s) that recognises a replay. */
export interface Delivery {
  readonly connection: DirectoryConnectionEntity;
  readonly signatureDigest: string;
  readonly events: readonly DirectoryEvent[];
  readonly timestampMs: number;
  readonly receivedAt: Date;
}

/** How many events of a delivery ended each way. */
export type DeliverySummary = Readonly<Record<EventOutcome, number>>;

/** What a committed delivery did: the summary, and what caches must drop. */
export interface DeliveryResult {
  readonly summary: DeliverySummary;
  readonly identities: ReadonlySet<string>;
  readonly tuplesChanged: boolean;
}

/**
 * Applies directory events to identities (through IdentitiesService) and group memberships (through
 * TuplesService). A delivery is one transaction: its replay record, the effects of its events and
 * their log entries commit together, once (one commit for a batch of 50, not 50). Each event runs
 * behind a savepoint: one that fails is rolled back alone, logged `failed`, and the rest still apply,
 * so every effect of one event is applied whole or not at all.
 */
@Injectable()
export class DirectoryEffects {
  private readonly logger = new Logger('DirectorySync');
  private readonly defaultMappings = new Map<string, TraitsMapping>();

  constructor(
    private readonly ledger: SyncLedgerRepository,
    private readonly identities: IdentitiesService,
    private readonly tuples: TuplesService,
    @InjectConfig('webhooks') private readonly webhooks: WebhooksConfig,
  ) {}

  applyDelivery(delivery: Delivery): Promise<DeliveryResult> {
    const { connection, timestampMs, receivedAt } = delivery;
    const received = delivery.events.map((event): ReceivedEvent => ({ connection, event, timestampMs, receivedAt }));
    return this.ledger.transaction(async (manager) => {
      const summary: Record<EventOutcome, number> = { applied: 0, duplicate: 0, rejected: 0, failed: 0 };
      const identities = new Set<string>();
      let tuplesChanged = false;
      if (!(await this.ledger.claimDelivery(manager, connection.id, delivery.signatureDigest, receivedAt))) {
        await this.ledger.log(
          received.map((entry) => logEntry(entry, 'duplicate', null)),
          manager,
        );
        return { summary: { ...summary, duplicate: received.length }, identities, tuplesChanged };
      }
      const userIds = received.filter(({ event }) => event.kind.startsWith('user.')).map(({ event }) => event.userId!);
      await this.ledger.lockUsers(manager, connection.id, userIds);
      const entries = [];
      for (const [index, entry] of received.entries()) {
        await this.ledger.savepoint(manager, index === 0);
        try {
          const result = await this.effects(manager, entry);
          summary[result.outcome] += 1;
          for (const id of result.identities) identities.add(id);
          tuplesChanged ||= result.tuplesChanged;
          entries.push(logEntry(entry, result.outcome, result.errorCode));
        } catch (error) {
          await this.ledger.rollbackToSavepoint(manager);
          summary.failed += 1;
          entries.push(logEntry(entry, 'failed', error instanceof AppError ? error.code : 'internal_error'));
          if (!(error instanceof AppError)) {
            this.logger.error({ msg: 'directory event failed', connection_id: connection.id, event: entry.event.kind }, error);
          }
        }
      }
      await this.ledger.log(entries, manager);
      return { summary, identities, tuplesChanged };
    });
  }

  private effects(manager: EntityManager, received: ReceivedEvent): Promise<EffectResult> {
    const { event } = received;
    switch (event.kind) {
      case 'user.created':
      case 'user.updated':
      case 'user.deleted':
        return this.userEvent(manager, received);
      case 'group.created':
      case 'group.updated':
        return this.groupSaved(manager, received);
      case 'group.deleted':
        return this.groupDeleted(manager, received);
      case 'group.user_added':
        return this.memberAdded(manager, received);
      case 'group.user_removed':
        return this.memberRemoved(manager, received);
    }
  }

  /**
   * Creates, updates, deactivates or deletes the linked identity. Deliveries about one user wait for
   * each other (`lockUsers`, until commit) and an event older than the last applied one is skipped, so
   * the last event of a burst wins whatever order they arrive in.
   */
  private async userEvent(manager: EntityManager, { connection, event, timestampMs, receivedAt }: ReceivedEvent): Promise<EffectResult> {
    const userId = event.userId!;
    const link = await this.ledger.findUserLink(manager, connection.id, userId);
    if (link !== null && Number(link.lastEventAt) > timestampMs) {
      return { outcome: 'duplicate', errorCode: DirectorySyncError.superseded().code, identities: [], tuplesChanged: false };
    }
    const ends = event.kind === 'user.deleted' || event.data['active'] === false;
    let identityId = link?.identityId ?? null;
    const written: string[] = [];
    let tuplesChanged = false;
    if (ends && connection.onDeactivate === 'delete') {
      if (identityId !== null) {
        await this.tuples.deleteSubjectWithin(manager, connection.groupsNamespace, identityId);
        await this.identities.deleteWithin(manager, identityId);
        written.push(identityId);
        tuplesChanged = true;
        identityId = null;
      }
    } else if (event.kind === 'user.deleted') {
      if (identityId !== null) {
        await this.identities.setStateWithin(manager, identityId, 'inactive');
        written.push(identityId);
      }
    } else {
      const identity = this.provisioned(connection, event, ends);
      identityId ??= await this.adoptable(manager, event);
      if (identityId === null) identityId = (await this.identities.createWithin(manager, identity)).identity.id;
      else {
        await this.identities.replaceWithin(manager, identityId, identity);
        written.push(identityId);
      }
    }
    const raw = event.data['raw'];
    await this.ledger.saveUserLink(
      manager,
      Object.assign(new DirectoryUserLinkEntity(), {
        connectionId: connection.id,
        directoryUserId: userId,
        identityId,
        raw: raw !== null && typeof raw === 'object' ? raw : (link?.raw ?? null),
        lastEventAt: String(timestampMs),
        updatedAt: receivedAt,
      }),
    );
    return { outcome: 'applied', errorCode: null, identities: written, tuplesChanged };
  }

  private async groupSaved(manager: EntityManager, { connection, event, receivedAt }: ReceivedEvent): Promise<EffectResult> {
    const group = event.group!;
    await this.ledger.saveGroup(manager, connection.id, group.id, group.name, receivedAt);
    return applied([], false);
  }

  /** The group and every membership tuple of it go. */
  private async groupDeleted(manager: EntityManager, { connection, event }: ReceivedEvent): Promise<EffectResult> {
    const group = event.group!;
    await this.tuples.deleteWithin(manager, { namespace: connection.groupsNamespace, object: group.id, relation: MEMBER });
    await this.ledger.deleteGroup(manager, connection.id, group.id);
    return applied([], true);
  }

  /** The user must have been provisioned by this connection (else `unknown_user`, logged `failed`). */
  private async memberAdded(manager: EntityManager, { connection, event, receivedAt }: ReceivedEvent): Promise<EffectResult> {
    const group = event.group!;
    const link = await this.ledger.findUserLink(manager, connection.id, event.userId!);
    if (link?.identityId === null || link?.identityId === undefined) throw DirectorySyncError.unknownUser();
    await this.ledger.saveGroup(manager, connection.id, group.id, group.name, receivedAt);
    await this.tuples.writeWithin(manager, {
      namespace: connection.groupsNamespace,
      object: group.id,
      relation: MEMBER,
      subject: link.identityId,
    });
    return applied([], true);
  }

  /** A user this connection does not know is in none of its groups: nothing to remove. */
  private async memberRemoved(manager: EntityManager, { connection, event }: ReceivedEvent): Promise<EffectResult> {
    const link = await this.ledger.findUserLink(manager, connection.id, event.userId!);
    if (link?.identityId === null || link?.identityId === undefined) return applied([], false);
    await this.tuples.deleteWithin(manager, {
      namespace: connection.groupsNamespace,
      object: event.group!.id,
      relation: MEMBER,
      subject: link.identityId,
    });
    return applied([], true);
  }

  /** An identity owning the event's e-mail that no directory user is linked to yet: linked rather than duplicated. */
  private async adoptable(manager: EntityManager, event: DirectoryEvent): Promise<string | null> {
    const email = event.data['email'];
    if (typeof email !== 'string' || email === '') return null;
    const owner = await this.identities.idByEmailWithin(manager, email);
    if (owner === undefined || (await this.ledger.isIdentityLinked(manager, owner))) return null;
    return owner;
  }

  private provisioned(connection: DirectoryConnectionEntity, event: DirectoryEvent, inactive: boolean): ProvisionedIdentity {
    return {
      schemaId: connection.schemaId ?? undefined,
      traits: mapTraits(event.data, this.mappingFor(connection.schemaId)),
      state: inactive ? 'inactive' : 'active',
      addressesVerified: this.webhooks.verifyAddresses,
    };
  }

  /** WEBHOOKS_TRAITS_MAPPING's entry for the schema, else one derived from the schema (computed once). */
  private mappingFor(schemaId: string | null): TraitsMapping {
    const id = this.identities.resolvedSchemaId(schemaId ?? undefined);
    const configured = this.webhooks.traitsMapping[id];
    if (configured !== undefined) return configured;
    let derived = this.defaultMappings.get(id);
    if (derived === undefined) {
      derived = defaultTraitsMapping(this.identities.schemaDocument(id));
      this.defaultMappings.set(id, derived);
    }
    return derived;
  }
}

function applied(identities: readonly string[], tuplesChanged: boolean): EffectResult {
  return { outcome: 'applied', errorCode: null, identities, tuplesChanged };
}

/** The log entry of an event: kind, ids, outcome, no body. */
function logEntry(received: ReceivedEvent, outcome: EventOutcome, errorCode: string | null) {
  const { event } = received;
  return {
    connectionId: received.connection.id,
    receivedAt: received.receivedAt,
    event: event.kind,
    directoryId: event.directoryId,
    objectId: event.userId ?? event.group?.id ?? null,
    groupId: event.userId !== undefined ? (event.group?.id ?? null) : null,
    outcome,
    errorCode,
  };
}
