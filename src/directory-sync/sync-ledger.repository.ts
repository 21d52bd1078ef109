import { randomUUID } from 'node:crypto';
import { withTransaction } from '../database/named-statements.js';
import { Injectable } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import type { Page } from '../common/pagination/page.js';
import { DirectoryDeliveryEntity } from './entities/directory-delivery.entity.js';
import { DirectoryEventEntity } from './entities/directory-event.entity.js';
import { DirectoryGroupLinkEntity } from './entities/directory-group-link.entity.js';
import { DirectoryUserLinkEntity } from './entities/directory-user-link.entity.js';
import type { EventOutcome } from './event-outcome.js';

/** A delivery's effects go back to this point when its one pass fails, one event's when that event fails. */
const SAVEPOINT = 'directory_sync_event';

/** An event log entry before it is written. */
export interface EventLogEntry {
  readonly connectionId: string;
  readonly receivedAt: Date;
  readonly event: string | null;
  readonly directoryId: string | null;
  readonly objectId: string | null;
  readonly groupId: string | null;
  readonly outcome: EventOutcome;
  readonly errorCode: string | null;
}

/**
 * What directory sync keeps besides connections: the user and group links, the event log, and the
 * accepted deliveries that make replays harmless. Effects run in `transaction`; every method taking an
 * EntityManager runs in it.
 */
@Injectable()
export class SyncLedgerRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return withTransaction(this.dataSource, ({ manager }) => work(manager));
  }

  /**
   * Records an accepted delivery in the caller's transaction; false when the same (t, s) was accepted
   * before, i.e. a replay. A replay arriving while the original is still being applied waits on the
   * unique key and is refused once the original commits.
   */
  async claimDelivery(manager: EntityManager, connectionId: string, signatureDigest: string, receivedAt: Date): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO directory_sync_deliveries (connection_id, signature_digest, received_at) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING 1`,
      [connectionId, signatureDigest, receivedAt],
    );
    return rows.length > 0;
  }

  /**
   * Serialises every event about these directory users, across requests and instances, until the
   * transaction ends: of a burst, each delivery sees the previous one's result. The locks are taken
   * together in one order, so two deliveries naming the same users cannot deadlock on them.
   */
  async lockUsers(manager: EntityManager, connectionId: string, directoryUserIds: readonly string[]): Promise<void> {
    if (directoryUserIds.length === 0) return;
    await manager.query(
      `SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtextextended(k, 0) AS h FROM unnest($1::text[]) AS k ORDER BY h) AS keys`,
      [directoryUserIds.map((id) => `directory-sync/user/${connectionId}/${id}`)],
    );
  }

  /** Marks a point the transaction can return to, dropping the previous one (one round trip). */
  async savepoint(manager: EntityManager, first: boolean): Promise<void> {
    await manager.query(first ? `SAVEPOINT ${SAVEPOINT}` : `RELEASE SAVEPOINT ${SAVEPOINT}; SAVEPOINT ${SAVEPOINT}`);
  }

  /** Undoes everything since the last `savepoint`; the transaction goes on. */
  async rollbackToSavepoint(manager: EntityManager): Promise<void> {
    await manager.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
  }

  findUserLink(manager: EntityManager, connectionId: string, directoryUserId: string): Promise<DirectoryUserLinkEntity | null> {
    return manager.findOneBy(DirectoryUserLinkEntity, { connectionId, directoryUserId });
  }

  /** `findUserLink` for many users in one statement: the links that exist. */
  findUserLinks(manager: EntityManager, connectionId: string, directoryUserIds: readonly string[]): Promise<DirectoryUserLinkEntity[]> {
    if (directoryUserIds.length === 0) return Promise.resolve([]);
    return manager.findBy(DirectoryUserLinkEntity, { connectionId, directoryUserId: In(directoryUserIds) });
  }

  async isIdentityLinked(manager: EntityManager, identityId: string): Promise<boolean> {
    return (await manager.countBy(DirectoryUserLinkEntity, { identityId })) > 0;
  }

  /** `isIdentityLinked` for many identities in one statement: those a directory user is linked to. */
  async linkedIdentities(manager: EntityManager, identityIds: readonly string[]): Promise<Set<string>> {
    if (identityIds.length === 0) return new Set();
    const links = await manager.find(DirectoryUserLinkEntity, { select: { identityId: true }, where: { identityId: In(identityIds) } });
    return new Set(links.map((link) => link.identityId!));
  }

  /** Creates or replaces links, one row per directory user (a user twice in one call is an error). */
  async saveUserLinks(manager: EntityManager, links: readonly DirectoryUserLinkEntity[]): Promise<void> {
    if (links.length === 0) return;
    await manager.upsert(DirectoryUserLinkEntity, [...links], ['connectionId', 'directoryUserId']);
  }

  /** Creates or renames the group; an unchanged name writes nothing. */
  async saveGroup(manager: EntityManager, connectionId: string, directoryGroupId: string, name: string, now: Date): Promise<void> {
    await manager.query(
      `INSERT INTO directory_sync_groups (connection_id, directory_group_id, name, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (connection_id, directory_group_id) DO UPDATE SET name = EXCLUDED.name, updated_at = EXCLUDED.updated_at
       WHERE directory_sync_groups.name IS DISTINCT FROM EXCLUDED.name`,
      [connectionId, directoryGroupId, name, now],
    );
  }

  async deleteGroup(manager: EntityManager, connectionId: string, directoryGroupId: string): Promise<void> {
    await manager.delete(DirectoryGroupLinkEntity, { connectionId, directoryGroupId });
  }

  /** Writes log entries, in the caller's transaction when given (an applied event's entry commits with its effects). */
  async log(entries: readonly EventLogEntry[], manager: EntityManager = this.dataSource.manager): Promise<void> {
    if (entries.length === 0) return;
    await manager.insert(
      DirectoryEventEntity,
      entries.map((entry) => ({ id: randomUUID(), ...entry })),
    );
  }

  /**
   * Logs one refused delivery: counted on the connection's entry for the same reason received within
   * `windowMs`, or a new entry when there is none. Two instances refusing the first delivery of a
   * window at the same moment may each start one; the log still grows by windows, not by requests.
   */
  async logRejected(connectionId: string, errorCode: string, receivedAt: Date, windowMs: number): Promise<void> {
    await this.dataSource.query(
      `WITH counted AS (
         UPDATE directory_sync_events SET count = count + 1
         WHERE id = (SELECT id FROM directory_sync_events
                     WHERE connection_id = $1 AND received_at > $3 AND outcome = 'rejected' AND error_code = $2
                     ORDER BY received_at DESC LIMIT 1)
         RETURNING 1)
       INSERT INTO directory_sync_events (id, connection_id, received_at, outcome, error_code, count)
       SELECT $4, $1, $5, 'rejected', $2, 1 WHERE NOT EXISTS (SELECT 1 FROM counted)`,
      [connectionId, errorCode, new Date(receivedAt.getTime() - windowMs), randomUUID(), receivedAt],
    );
  }

  /** Newest first (ties by id). */
  async findEvents(
    connectionId: string,
    outcome: EventOutcome | undefined,
    page: Page,
  ): Promise<{ rows: DirectoryEventEntity[]; total: number }> {
    const [rows, total] = await this.dataSource.manager.findAndCount(DirectoryEventEntity, {
      where: outcome === undefined ? { connectionId } : { connectionId, outcome },
      order: { receivedAt: 'DESC', id: 'DESC' },
      take: page.limit,
      skip: page.offset,
    });
    return { rows, total };
  }

  /** Log entries received before `eventsBefore`, replay records before `deliveriesBefore`. */
  async deleteExpired(eventsBefore: Date, deliveriesBefore: Date): Promise<{ events: number; deliveries: number }> {
    const events = await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(DirectoryEventEntity)
      .where('received_at < :eventsBefore', { eventsBefore })
      .execute();
    const deliveries = await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(DirectoryDeliveryEntity)
      .where('received_at < :deliveriesBefore', { deliveriesBefore })
      .execute();
    return { events: events.affected ?? 0, deliveries: deliveries.affected ?? 0 };
  }
}
