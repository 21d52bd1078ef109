import { Injectable } from '@nestjs/common';
import { withTransaction } from '../database/named-statements.js';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { Page } from '../common/pagination/page.js';
import { ClientsError } from './clients.errors.js';
import { ClientEntity } from './entities/client.entity.js';
import type { Announce } from '../database/change-notifier.js';
import { isUniqueViolation } from '../database/sql-state.js';

const MAX_ID_LENGTH = 255;

/**
 * The clients table. Translates database outcomes into ClientsError (unique violation → conflict,
 * no row → not found). Writes use insert()/update()/delete(): one statement each, no save().
 */
@Injectable()
export class ClientsRepository {
  constructor(@InjectRepository(ClientEntity) private readonly rows: Repository<ClientEntity>) {}

  async insert(entity: ClientEntity): Promise<void> {
    try {
      await this.rows.insert(entity);
    } catch (error) {
      if (isUniqueViolation(error)) throw ClientsError.conflict(error);
      throw error;
    }
  }

  /** One primary-key lookup, without the secret hash. */
  async getById(id: string): Promise<ClientEntity> {
    const entity = storableId(id) ? await this.rows.createQueryBuilder('client').where('client.id = :id', { id }).getOne() : null;
    if (entity === null) throw ClientsError.notFound();
    return entity;
  }

  /** The row with its secret hash, or null: authentication must not tell a missing client apart early. */
  async findWithSecretHash(id: string): Promise<ClientEntity | null> {
    if (!storableId(id)) return null;
    return this.rows.createQueryBuilder('client').addSelect('client.secretHash').where('client.id = :id', { id }).getOne();
  }

  /** The page in client_id order (Hydra's order) and the total count. */
  async findPage(page: Page): Promise<{ rows: ClientEntity[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.rows.createQueryBuilder('client').orderBy('client.id', 'ASC').limit(page.limit).offset(page.offset).getMany(),
      this.rows.count(),
    ]);
    return { rows, total };
  }

  /**
   * Overwrites the row's columns (a `secretHash` of undefined leaves the stored hash alone) and
   * announces the change in the same transaction.
   */
  async update(id: string, columns: Partial<Omit<ClientEntity, 'id' | 'createdAt'>>, announce: Announce): Promise<void> {
    if (!storableId(id)) throw ClientsError.notFound();
    await withTransaction(this.rows.manager.dataSource, async ({ manager }) => {
      const result = await manager.update(ClientEntity, { id }, columns);
      if (result.affected === 0) throw ClientsError.notFound();
      await announce(manager);
    });
  }

  /** Deletes the row and announces it in the same transaction. */
  async delete(id: string, announce: Announce): Promise<void> {
    if (!storableId(id)) throw ClientsError.notFound();
    await withTransaction(this.rows.manager.dataSource, async ({ manager }) => {
      const result = await manager.delete(ClientEntity, { id });
      if (result.affected === 0) throw ClientsError.notFound();
      await announce(manager);
    });
  }
}

/** PostgreSQL text cannot hold NUL, and no stored id is longer than the column: such ids exist nowhere. */
function storableId(id: string): boolean {
  return id.length > 0 && id.length <= MAX_ID_LENGTH && !id.includes('\0');
}
