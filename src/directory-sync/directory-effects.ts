import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../common/errors/app-error.js';
import type { EntityManager } from 'typeorm';
import type { WebhooksConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { IdentitiesService, type ProvisionedIdentity } from '../identities/index.js';
import { TuplesService } from '../tuples/index.js';
import { DeliveryPass } from './delivery-pass.js';
import { DirectorySyncMetrics } from './directory-sync.metrics.js';
import type { DirectoryEvent } from './directory-event.js';
import { DirectorySyncError } from './directory-sync.errors.js';
import type { DirectoryConnectionEntity } from './entities/directory-connection.entity.js';
import { DirectoryUserLinkEntity } from './entities/directory-user-link.entity.js';
import type { EventOutcome } from './event-outcome.js';
import { SyncLedgerRepository, type EventLogEntry } from './sync-ledger.repository.js';
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

/** What a pass over a delivery's events did: the summary, the log entries, and what caches must drop. */
class PassTally {
  readonly summary: Record<EventOutcome, number> = { applied: 0, duplicate: 0, rejected: 0, failed: 0 };
  readonly entries: EventLogEntry[] = [];
  readonly identities = new Set<string>();
  tuplesChanged = false;

  applied(entry: ReceivedEvent, result: EffectResult): void {
    this.summary[result.outcome] += 1;
    for (const id of result.identities) this.identities.add(id);
    this.tuplesChanged ||= result.tuplesChanged;
    this.entries.push(logEntry(entry, result.outcome, result.errorCode));
  }

  failed(entry: ReceivedEvent, errorCode: string): void {
    this.summary.failed += 1;
    this.entries.push(logEntry(entry, 'failed', errorCode));
  }
}

/**
 * Applies directory events to identities (through IdentitiesService) and group memberships (through
 * TuplesService). A delivery is one transaction: its replay record, the effects of its events and
 * their log entries commit together, once (one commit for a batch of 50, not 50). Every effect of one
 * event is applied whole or not at all: the events run first in one pass behind one savepoint, with
 * the delivery's links and e-mail owners read up front and its links written at the end; when any
 * event fails, that pass is rolled back and the events run again one by one, each behind its own
 * savepoint, so that the one that fails is rolled back alone, logged `failed`, and the rest still
 * apply. Both ways give the same outcome; the first spares a clean batch most of its round trips.
 */
@Injectable()
export class DirectoryEffects {
  private readonly logger = new Logger('DirectorySync');
  private readonly metrics = new DirectorySyncMetrics();
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
      if (!(await this.ledger.claimDelivery(manager, connection.id, delivery.signatureDigest, receivedAt))) {
        await this.ledger.log(
          received.map((entry) => logEntry(entry, 'duplicate', null)),
          manager,
        );
        return { summary: { applied: 0, duplicate: received.length, rejected: 0, failed: 0 }, identities: new Set(), tuplesChanged: false };
      }
      const userIds = received.filter(({ event }) => event.kind.startsWith('user.')).map(({ event }) => event.userId!);
      await this.ledger.lockUsers(manager, connection.id, userIds);
      let tally = await this.inOnePass(manager, connection, received);
      if (tally === undefined) {
        this.metrics.appliedEventByEvent();
        tally = await this.eventByEvent(manager, connection, received);
      }
      await this.ledger.log(tally.entries, manager);
      return { summary: tally.summary, identities: tally.identities, tuplesChanged: tally.tuplesChanged };
    });
  }

  /**
   * Applies every event behind one savepoint, or, when any fails, rolls them all back to it and
   * answers undefined. What the rolled-back events announced (IdentitiesService and TuplesService
   * announce inside the transaction: a `pg_notify`, and at once to this instance's listeners) does no
   * harm: PostgreSQL drops the notifications queued since a savepoint when rolling back to it (so other
   * instances hear only what commits), and here a listener has merely dropped a cache entry that was
   * still good, as when one event fails on the event-by-event path.
   */
  private async inOnePass(
    manager: EntityManager,
    connection: DirectoryConnectionEntity,
    received: readonly ReceivedEvent[],
  ): Promise<PassTally | undefined> {
    await this.ledger.savepoint(manager, true);
    try {
      const pass = await DeliveryPass.prefetched(
        this.ledger,
        this.identities,
        manager,
        connection.id,
        received.map(({ event }) => event),
      );
      const tally = new PassTally();
      for (const entry of received) tally.applied(entry, await this.effects(manager, pass, entry));
      await pass.flush();
      return tally;
    } catch {
      // The failing event is found, logged and reported by the event-by-event pass that follows.
      await this.ledger.rollbackToSavepoint(manager);
      return undefined;
    }
  }

  /** Each event behind its own savepoint; the transaction stands at the one-pass savepoint, rolled back to. */
  private async eventByEvent(
    manager: EntityManager,
    connection: DirectoryConnectionEntity,
    received: readonly ReceivedEvent[],
  ): Promise<PassTally> {
    const pass = DeliveryPass.eventByEvent(this.ledger, this.identities, manager, connection.id);
    const tally = new PassTally();
    for (const [index, entry] of received.entries()) {
      // The first event starts from the savepoint the one pass was rolled back to.
      if (index > 0) await this.ledger.savepoint(manager, false);
      try {
        tally.applied(entry, await this.effects(manager, pass, entry));
      } catch (error) {
        await this.ledger.rollbackToSavepoint(manager);
        tally.failed(entry, error instanceof AppError ? error.code : 'internal_error');
        if (!(error instanceof AppError)) {
          this.logger.error({ msg: 'directory event failed', connection_id: connection.id, event: entry.event.kind }, error);
        }
      }
    }
    return tally;
  }

  private effects(manager: EntityManager, pass: DeliveryPass, received: ReceivedEvent): Promise<EffectResult> {
    const { event } = received;
    switch (event.kind) {
      case 'user.created':
      case 'user.updated':
      case 'user.deleted':
        return this.userEvent(manager, pass, received);
      case 'group.created':
      case 'group.updated':
        return this.groupSaved(manager, received);
      case 'group.deleted':
        return this.groupDeleted(manager, received);
      case 'group.user_added':
        return this.memberAdded(manager, pass, received);
      case 'group.user_removed':
        return this.memberRemoved(manager, pass, received);
    }
  }

  /**
   * Creates, updates, deactivates or deletes the linked identity. Deliveries about one user wait for
   * each other (`lockUsers`, until commit) and an event older than the last applied one is skipped, so
   * the last event of a burst wins whatever order they arrive in.
   */
  private async userEvent(
    manager: EntityManager,
    pass: DeliveryPass,
    { connection, event, timestampMs, receivedAt }: ReceivedEvent,
  ): Promise<EffectResult> {
    const userId = event.userId!;
    const link = await pass.userLink(userId);
    if (link !== null && Number(link.lastEventAt) > timestampMs) {
      return { outcome: 'duplicate', errorCode: DirectorySyncError.superseded().code, identities: [], tuplesChanged: false };
    }
    const ends = event.kind === 'user.deleted' || event.data['active'] === false;
    let identityId = link?.identityId ?? null;
    const written: string[] = [];
    let tuplesChanged = false;
    if (ends && connection.onDeactivate === 'delete') {
      if (identityId !== null) {
        pass.writing(identityId);
        await this.tuples.deleteSubjectWithin(manager, connection.groupsNamespace, identityId);
        await this.identities.deleteWithin(manager, identityId);
        written.push(identityId);
        tuplesChanged = true;
        identityId = null;
      }
    } else if (event.kind === 'user.deleted') {
      if (identityId !== null) {
        pass.writing(identityId);
        await this.identities.setStateWithin(manager, identityId, 'inactive');
        written.push(identityId);
      }
    } else {
      const identity = this.provisioned(connection, event, ends);
      identityId ??= await pass.adoptable(event.data['email']);
      pass.writing(identityId, identity.traits);
      if (identityId === null) identityId = (await this.identities.createWithin(manager, identity)).identity.id;
      else {
        await this.identities.replaceWithin(manager, identityId, identity);
        written.push(identityId);
      }
    }
    const raw = event.data['raw'];
    await pass.saveUserLink(
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
  private async memberAdded(
    manager: EntityManager,
    pass: DeliveryPass,
    { connection, event, receivedAt }: ReceivedEvent,
  ): Promise<EffectResult> {
    const group = event.group!;
    const link = await pass.userLink(event.userId!);
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
  private async memberRemoved(manager: EntityManager, pass: DeliveryPass, { connection, event }: ReceivedEvent): Promise<EffectResult> {
    const link = await pass.userLink(event.userId!);
    if (link?.identityId === null || link?.identityId === undefined) return applied([], false);
    await this.tuples.deleteWithin(manager, {
      namespace: connection.groupsNamespace,
      object: event.group!.id,
      relation: MEMBER,
      subject: link.identityId,
    });
    return applied([], true);
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
