import { Injectable } from '@nestjs/common';
import { withTransaction } from '../database/named-statements.js';
import { DataSource, type EntityManager } from 'typeorm';
import { JsonWebKeyEntity } from './entities/json-web-key.entity.js';
import type { PublicJwk } from './jwk.js';
import { MAX_KEYS_PER_SET } from './key-sets.js';
import { KeysError, KeysErrorCode } from './keys.errors.js';
import { isUniqueViolation } from '../database/sql-state.js';
import type { Announce } from '../database/change-notifier.js';

/** A key ready to store: public members in clear, private members already sealed. */
export interface NewKeyRow {
  readonly kid: string;
  readonly publicJwk: PublicJwk;
  readonly sealedPrivate: string | undefined;
}

/** The columns the public JWKS needs; no private column is read for it. */
export interface PublishedKeyRow {
  readonly setName: string;
  readonly kty: string;
  readonly publicJwk: PublicJwk;
}

/** Namespace of the per-set advisory locks (the two-key form, apart from the migration lock). */
const SET_LOCK_NAMESPACE = 0x6a776b;

/**
 * Storage of key sets. Every write runs in one transaction holding a per-set advisory lock, so the
 * size limit holds and "create the set if it is empty" is decided once when instances race. A set
 * exists while it has keys; ordering by `pk` (insertion order) puts the newest key first.
 */
@Injectable()
export class KeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Newest first; empty when the set does not exist. */
  findSet(set: string): Promise<JsonWebKeyEntity[]> {
    return this.dataSource.getRepository(JsonWebKeyEntity).find({ where: { setName: set }, order: { pk: 'DESC' } });
  }

  findKey(set: string, kid: string): Promise<JsonWebKeyEntity | null> {
    return this.dataSource.getRepository(JsonWebKeyEntity).findOneBy({ setName: set, kid });
  }

  async hasKeys(set: string): Promise<boolean> {
    return this.dataSource.getRepository(JsonWebKeyEntity).existsBy({ setName: set });
  }

  /** Public columns of the given sets, newest first within each set. */
  async findPublished(sets: readonly string[]): Promise<PublishedKeyRow[]> {
    if (sets.length === 0) return [];
    const rows = await this.dataSource
      .getRepository(JsonWebKeyEntity)
      .createQueryBuilder('key')
      .select(['key.setName', 'key.kty', 'key.publicJwk', 'key.pk'])
      .where('key.setName IN (:...sets)', { sets })
      .orderBy('key.pk', 'DESC')
      .getMany();
    return rows.map(({ setName, kty, publicJwk }) => ({ setName, kty, publicJwk }));
  }

  /** Adds one key as the newest of its set, creating the set. */
  add(set: string, key: NewKeyRow, announce: Announce): Promise<JsonWebKeyEntity> {
    return this.writeSet(set, announce, async (manager) => {
      await this.ensureRoom(manager, set, 1);
      return this.insert(manager, set, key);
    });
  }

  /** Adds the key only when the set has none; false when another writer got there first. */
  addIfSetEmpty(set: string, key: NewKeyRow, announce: Announce): Promise<boolean> {
    return this.writeSet(set, announce, async (manager) => {
      if (await manager.existsBy(JsonWebKeyEntity, { setName: set })) return false;
      await this.insert(manager, set, key);
      return true;
    });
  }

  /** Replaces the whole set. `keys` is newest first, and reads back in that order. */
  replaceSet(set: string, keys: readonly NewKeyRow[], announce: Announce): Promise<JsonWebKeyEntity[]> {
    return this.writeSet(set, announce, async (manager) => {
      await manager.delete(JsonWebKeyEntity, { setName: set });
      const stored: JsonWebKeyEntity[] = [];
      // One by one, oldest first: each insert takes the next pk, so the first key given ends up newest.
      for (const key of [...keys].reverse()) stored.unshift(await this.insert(manager, set, key));
      return stored;
    });
  }

  /** Replaces the key with the same kid (or adds it); like any added key it becomes the newest. */
  replaceKey(set: string, key: NewKeyRow, announce: Announce): Promise<JsonWebKeyEntity> {
    return this.writeSet(set, announce, async (manager) => {
      await manager.delete(JsonWebKeyEntity, { setName: set, kid: key.kid });
      await this.ensureRoom(manager, set, 1);
      return this.insert(manager, set, key);
    });
  }

  async deleteSet(set: string, announce: Announce): Promise<void> {
    await this.writeSet(set, announce, async (manager) => {
      const result = await manager.delete(JsonWebKeyEntity, { setName: set });
      if (result.affected === 0) throw new KeysError(KeysErrorCode.SetNotFound, `Key set ${set} does not exist.`);
    });
  }

  async deleteKey(set: string, kid: string, announce: Announce): Promise<void> {
    await this.writeSet(set, announce, async (manager) => {
      const result = await manager.delete(JsonWebKeyEntity, { setName: set, kid });
      if (result.affected === 0) throw new KeysError(KeysErrorCode.KeyNotFound, `Key ${kid} does not exist in set ${set}.`);
    });
  }

  /** Runs a write of the set under its lock, and announces it in the same transaction. */
  private writeSet<T>(set: string, announce: Announce, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return withTransaction(this.dataSource, async ({ manager }) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SET_LOCK_NAMESPACE, set]);
      const result = await work(manager);
      await announce(manager);
      return result;
    });
  }

  private async ensureRoom(manager: EntityManager, set: string, adding: number): Promise<void> {
    const count = await manager.countBy(JsonWebKeyEntity, { setName: set });
    if (count + adding > MAX_KEYS_PER_SET) {
      throw new KeysError(
        KeysErrorCode.TooManyKeys,
        `Key set ${set} already holds ${count} keys; at most ${MAX_KEYS_PER_SET} are allowed.`,
      );
    }
  }

  private async insert(manager: EntityManager, set: string, key: NewKeyRow): Promise<JsonWebKeyEntity> {
    const entity = manager.create(JsonWebKeyEntity, {
      setName: set,
      kid: key.kid,
      kty: key.publicJwk.kty,
      alg: key.publicJwk.alg,
      use: key.publicJwk.use ?? null,
      publicJwk: key.publicJwk,
      sealedPrivate: key.sealedPrivate ?? null,
    });
    try {
      await manager.insert(JsonWebKeyEntity, entity);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new KeysError(KeysErrorCode.KidTaken, `Key set ${set} already has a key with kid ${key.kid}.`);
      }
      throw error;
    }
    return entity;
  }
}
