import type { Announce } from '../database/change-notifier.js';
import { withTransaction } from '../database/named-statements.js';
import { Injectable } from '@nestjs/common';
import { DataSource, type Repository } from 'typeorm';
import type { Page } from '../common/pagination/page.js';
import { isUuid } from '../database/uuid.js';
import { DirectorySyncError } from './directory-sync.errors.js';
import { DirectoryConnectionEntity } from './entities/directory-connection.entity.js';

/** A connection with its sealed secrets, for verifying deliveries and rotating. */
export type SealedConnection = DirectoryConnectionEntity;

/** `directory_sync_connections` through TypeORM. The sealed secrets are read only where asked for. */
@Injectable()
export class ConnectionsRepository {
  private readonly rows: Repository<DirectoryConnectionEntity>;

  constructor(dataSource: DataSource) {
    this.rows = dataSource.getRepository(DirectoryConnectionEntity);
  }

  /** Inserts the connection, announced in the same transaction. */
  async insert(connection: DirectoryConnectionEntity, announce: Announce): Promise<void> {
    await withTransaction(this.rows.manager.dataSource, async ({ manager }) => {
      await manager.insert(DirectoryConnectionEntity, connection);
      await announce(manager);
    });
  }

  /** In creation order (ties by id), so pages stay stable while connections are added. */
  async findPage(page: Page): Promise<{ rows: DirectoryConnectionEntity[]; total: number }> {
    const [rows, total] = await this.rows.findAndCount({ order: { createdAt: 'ASC', id: 'ASC' }, take: page.limit, skip: page.offset });
    return { rows, total };
  }

  async get(id: string): Promise<DirectoryConnectionEntity> {
    const row = isUuid(id) ? await this.rows.findOneBy({ id }) : null;
    if (row === null) throw DirectorySyncError.notFound();
    return row;
  }

  async getSealed(id: string): Promise<SealedConnection> {
    const row = isUuid(id)
      ? await this.rows
          .createQueryBuilder('connection')
          .addSelect(['connection.secretSealed', 'connection.previousSecretSealed'])
          .where('connection.id = :id', { id })
          .getOne()
      : null;
    if (row === null) throw DirectorySyncError.notFound();
    return row;
  }

  /** 404 when absent. */
  async delete(id: string): Promise<void> {
    const result = isUuid(id) ? await this.rows.delete({ id }) : { affected: 0 };
    if ((result.affected ?? 0) === 0) throw DirectorySyncError.notFound();
  }

  async rotate(
    id: string,
    secretSealed: string,
    previousSecretSealed: string | null,
    previousExpiresAt: Date | null,
    now: Date,
  ): Promise<void> {
    const result = await this.rows.update(
      { id },
      { secretSealed, previousSecretSealed, previousSecretExpiresAt: previousExpiresAt, updatedAt: now },
    );
    if ((result.affected ?? 0) === 0) throw DirectorySyncError.notFound();
  }

  /** Every groups namespace a connection uses. */
  async groupsNamespaces(): Promise<string[]> {
    const rows: { groups_namespace: string }[] = await this.rows.query('SELECT DISTINCT groups_namespace FROM directory_sync_connections');
    return rows.map((row) => row.groups_namespace);
  }
}
