import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { Injectable } from '@nestjs/common';
import type { Announce } from '../database/change-notifier.js';
import { DataSource, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { offsetOf, type NumberedPage } from '../common/pagination/numbered-page.js';
import { IdentityCredentialIdentifierEntity } from './entities/identity-credential-identifier.entity.js';
import { IdentityCredentialEntity } from './entities/identity-credential.entity.js';
import { IdentityRecoveryAddressEntity } from './entities/identity-recovery-address.entity.js';
import { IdentityVerifiableAddressEntity } from './entities/identity-verifiable-address.entity.js';
import { IdentityEntity } from './entities/identity.entity.js';
import { IdentitiesError } from './identities.errors.js';
import type { IdentifierCondition } from './identity-list-filter.js';
import { IdentityLifecycle } from './identity-lifecycle.js';
import type { IdentityRecord } from './identity-record.js';
import type { IdentityState } from './identity-state.js';
import type { DerivedAddress, DerivedTraits } from './schemas/derived-traits.js';
import { entityRows, type EntityRows } from '../database/entity-rows.js';
import { type EmbeddedRead, type NamedStatement, runNamed, withTransaction } from '../database/named-statements.js';
import { isForeignKeyViolation, SqlState, sqlStateOf, violatedConstraintOf } from '../database/sql-state.js';
import { isUuid } from '../database/uuid.js';

const PASSWORD = 'password';
/** Kratos' status of a verified address. */
const VERIFIED_STATUS = 'completed';

/** An identity row as a statement of `withAddresses` returns it (pg's parsing, or JSON text inside a subquery). */
type IdentityWithAddressesRow = Record<string, unknown> & {
  readonly verifiable_addresses: readonly Record<string, unknown>[];
  readonly recovery_addresses: readonly Record<string, unknown>[];
};

/** The identity tables' statement columns and mappings (see entityRows), built once at boot. */
interface IdentityTables {
  readonly identities: EntityRows<IdentityEntity>;
  readonly verifiable: EntityRows<IdentityVerifiableAddressEntity>;
  readonly recovery: EntityRows<IdentityRecoveryAddressEntity>;
  /**
   * An identity (alias `i`) with its addresses in one statement (the addresses as JSON arrays), for
   * the admin GET and for the login path, where every round trip counts (docs/self-service.md,
   * Performance).
   */
  readonly withAddresses: string;
  readonly getWithAddresses: NamedStatement;
}

function identityTables(dataSource: DataSource): IdentityTables {
  const identities = entityRows(dataSource, IdentityEntity);
  const verifiable = entityRows(dataSource, IdentityVerifiableAddressEntity);
  const recovery = entityRows(dataSource, IdentityRecoveryAddressEntity);
  const withAddresses = `${identities.qualified('i')},
    COALESCE((SELECT json_agg(${verifiable.jsonObject('a')})
                FROM identity_verifiable_addresses a WHERE a.identity_id = i.id), '[]') AS verifiable_addresses,
    COALESCE((SELECT json_agg(${recovery.jsonObject('r')})
                FROM identity_recovery_addresses r WHERE r.identity_id = i.id), '[]') AS recovery_addresses`;
  return {
    identities,
    verifiable,
    recovery,
    withAddresses,
    // A named statement: prepared once per pooled connection.
    getWithAddresses: { name: 'identities_get_with_addresses', text: `SELECT ${withAddresses} FROM identities i WHERE i.id = $1` },
  };
}

/**
 * The password credential of a login identifier with its identity (and addresses), as one JSON value
 * or NULL; `type` and `identifier` are the statement's placeholders for them.
 */
function passwordCredentialJson(tables: IdentityTables, type: string, identifier: string): string {
  return `(SELECT row_to_json(credential) FROM (
             SELECT c.config ->> 'hashed_password' AS hashed_password, ${tables.withAddresses}
               FROM identity_credential_identifiers ci
               JOIN identities i ON i.id = ci.identity_id
               LEFT JOIN identity_credentials c ON c.identity_id = ci.identity_id AND c.type = ci.type
              WHERE ci.type = ${type} AND ci.identifier = ${identifier}) credential)`;
}

/** An identity and its addresses (which travelled as JSON) as the record. */
function toRecord(tables: IdentityTables, identity: IdentityEntity, row: IdentityWithAddressesRow): IdentityRecord {
  return {
    identity,
    verifiableAddresses: ordered(row.verifiable_addresses.map((address) => tables.verifiable.fromJson(address))),
    recoveryAddresses: ordered(row.recovery_addresses.map((address) => tables.recovery.fromJson(address))),
  };
}

/** Which request field a unique index guards, for the 409's `details.field`. */
const CONFLICT_FIELDS: Readonly<Record<string, string>> = {
  UQ_identity_credential_identifiers_type_identifier: 'credentials_identifier',
  UQ_identity_verifiable_addresses_via_value: 'verifiable_addresses',
  UQ_identity_recovery_addresses_via_value: 'recovery_addresses',
};

/** What a create or update writes: the schema, the traits and what the schema derived from them. */
export interface IdentityWrite {
  readonly schemaId: string;
  readonly traits: Record<string, unknown>;
  readonly derived: DerivedTraits;
  /** Absent: `active` on a create, unchanged on an update. */
  readonly state?: IdentityState;
  /** The derived verifiable addresses are known to belong to the identity (asserted by a trusted directory). */
  readonly addressesVerified?: boolean;
  /** An update that would change nothing writes nothing (a repeated directory event leaves `updated_at` alone). */
  readonly onlyIfChanged?: boolean;
}

/** A password credential as the admin API exports it: its hash (absent without a password) and identifiers. */
export interface ExportedPasswordCredential {
  readonly hashedPassword: string | undefined;
  readonly identifiers: string[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A password credential found by login identifier (see `passwordCredentialRead`), with its identity. */
export interface PasswordCredential {
  readonly identityId: string;
  /** PHC argon2 or bcrypt string; undefined when the identity has identifiers but no password. */
  readonly hashedPassword: string | undefined;
  /** The identity owning it, so that a successful login needs no second lookup. */
  readonly record: IdentityRecord;
}

/**
 * The identity tables. Every write is one transaction: identity, identifiers and addresses go in
 * together or not at all. A unique violation becomes a 409 naming the field; an update takes the row
 * lock without waiting (FOR NO KEY UPDATE NOWAIT: it conflicts with another update or a delete of the
 * identity, not with rows merely referencing it), so a concurrent write to the same identity gets a
 * 409 `concurrent_update` instead of interleaving.
 */
@Injectable()
export class IdentitiesRepository {
  private readonly tables: IdentityTables;

  constructor(
    private readonly dataSource: DataSource,
    private readonly lifecycle: IdentityLifecycle,
  ) {
    this.tables = identityTables(dataSource);
  }

  async insert(write: IdentityWrite, hashedPassword: string | undefined, within?: EntityManager): Promise<IdentityRecord> {
    const now = new Date();
    const identity = Object.assign(new IdentityEntity(), {
      id: randomUUID(),
      schemaId: write.schemaId,
      traits: write.traits,
      state: write.state ?? 'active',
      stateChangedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    return this.writing(within, async (manager) => {
      await manager.insert(IdentityEntity, identity);
      await this.insertIdentifiers(manager, identity.id, write.derived);
      if (hashedPassword !== undefined) {
        await manager.insert(IdentityCredentialEntity, {
          id: randomUUID(),
          identityId: identity.id,
          type: PASSWORD,
          config: { hashed_password: hashedPassword },
          createdAt: now,
          updatedAt: now,
        });
      }
      const verifiableAddresses = await this.syncVerifiable(manager, identity.id, [], write, now);
      const recoveryAddresses = await this.syncRecovery(manager, identity.id, [], write.derived.recoveryAddresses, now);
      return { identity, verifiableAddresses, recoveryAddresses };
    });
  }

  /**
   * Locks the identity, lets `build` compute the new state from the current row (it may throw), then
   * replaces traits, identifiers and addresses. Addresses that stay keep their id and verification state.
   * Turning the identity `inactive` ends its access in the same transaction (IdentityLifecycle).
   */
  async replace(
    id: string,
    build: (current: IdentityEntity) => IdentityWrite,
    announce: Announce,
    within?: EntityManager,
  ): Promise<IdentityRecord> {
    if (!isUuid(id)) throw IdentitiesError.notFound();
    return this.writing(within, async (manager) => {
      const current = await manager
        .createQueryBuilder(IdentityEntity, 'identity')
        .where('identity.id = :id', { id })
        .setLock('for_no_key_update')
        .setOnLocked('nowait')
        .getOne();
      if (current === null) throw IdentitiesError.notFound();
      const write = build(current);
      const now = new Date();
      const state = write.state ?? current.state;
      const stateChangedAt = state === current.state ? current.stateChangedAt : now;
      if (state === 'inactive' && current.state !== 'inactive') await this.lifecycle.endAccess(id, 'deactivated', manager);
      // One connection: queries inside a transaction run one after the other.
      const verifiable = await manager.find(IdentityVerifiableAddressEntity, { where: { identityId: id } });
      const recovery = await manager.find(IdentityRecoveryAddressEntity, { where: { identityId: id } });
      if (write.onlyIfChanged === true && unchanged(current, write, state, verifiable)) {
        return { identity: current, verifiableAddresses: ordered(verifiable), recoveryAddresses: ordered(recovery) };
      }
      await manager.update(
        IdentityEntity,
        { id },
        { schemaId: write.schemaId, traits: write.traits, state, stateChangedAt, updatedAt: now },
      );
      await manager.delete(IdentityCredentialIdentifierEntity, { identityId: id });
      await this.insertIdentifiers(manager, id, write.derived);
      const verifiableAddresses = await this.syncVerifiable(manager, id, verifiable, write, now);
      const recoveryAddresses = await this.syncRecovery(manager, id, recovery, write.derived.recoveryAddresses, now);
      const identity = Object.assign(current, { schemaId: write.schemaId, traits: write.traits, state, stateChangedAt, updatedAt: now });
      await announce(manager);
      return { identity, verifiableAddresses, recoveryAddresses };
    });
  }

  async get(id: string): Promise<IdentityRecord> {
    const [row] = isUuid(id) ? (await runNamed<IdentityWithAddressesRow>(this.dataSource, this.tables.getWithAddresses, [id])).rows : [];
    if (row === undefined) throw IdentitiesError.notFound();
    return toRecord(this.tables, this.tables.identities.toEntity(row), row);
  }

  /** One page in creation order (ties by id), so pages stay stable while identities are added. */
  async findPage(page: NumberedPage, conditions: readonly IdentifierCondition[]): Promise<{ records: IdentityRecord[]; total: number }> {
    const query = this.dataSource.manager.createQueryBuilder(IdentityEntity, 'identity');
    conditions.forEach((condition, index) => filterByIdentifier(query, condition, index));
    const [identities, total] = await Promise.all([
      query
        .clone()
        .orderBy('identity.createdAt', 'ASC')
        .addOrderBy('identity.id', 'ASC')
        .limit(page.perPage)
        .offset(offsetOf(page))
        .getMany(),
      query.getCount(),
    ]);
    return { records: await this.withAddresses(identities), total };
  }

  /**
   * The password credentials (hash and login identifiers) of some identities, for the admin API's
   * `include_credential=password`: an export that keeps passwords working after an import elsewhere.
   */
  async passwordCredentials(identityIds: readonly string[]): Promise<Map<string, ExportedPasswordCredential>> {
    const found = new Map<string, ExportedPasswordCredential>();
    if (identityIds.length === 0) return found;
    const [credentials, identifiers] = await Promise.all([
      this.dataSource.manager
        .createQueryBuilder(IdentityCredentialEntity, 'credential')
        .addSelect('credential.config')
        .where('credential.identityId IN (:...ids)', { ids: identityIds })
        .andWhere('credential.type = :type', { type: PASSWORD })
        .getMany(),
      this.dataSource.manager
        .createQueryBuilder(IdentityCredentialIdentifierEntity, 'identifier')
        .where('identifier.identityId IN (:...ids)', { ids: identityIds })
        .andWhere('identifier.type = :type', { type: PASSWORD })
        .orderBy('identifier.identifier', 'ASC')
        .getMany(),
    ]);
    for (const credential of credentials) {
      const hashed = credential.config['hashed_password'];
      found.set(credential.identityId, {
        hashedPassword: typeof hashed === 'string' ? hashed : undefined,
        identifiers: [],
        createdAt: credential.createdAt,
        updatedAt: credential.updatedAt,
      });
    }
    for (const identifier of identifiers) found.get(identifier.identityId)?.identifiers.push(identifier.identifier);
    return found;
  }

  /**
   * Removes the identity and, by ON DELETE CASCADE, everything that hangs off it; credentials issued
   * elsewhere end and the change is announced in the same transaction (IdentityLifecycle). Absent is fine.
   */
  async delete(id: string, announce: Announce, within?: EntityManager): Promise<void> {
    if (!isUuid(id)) return;
    await this.writing(within, async (manager) => {
      await this.lifecycle.endAccess(id, 'deleted', manager);
      if (((await manager.delete(IdentityEntity, { id })).affected ?? 0) > 0) await announce(manager);
    });
  }

  /**
   * The identity owning a login identifier or an e-mail verifiable address (both already normalized),
   * or undefined. An e-mail that is one identity's login identifier and another's address answers the
   * identifier's identity: stated by the rank, since UNION ALL promises no order of its own.
   */
  async idByEmail(email: string, within: EntityManager): Promise<string | undefined> {
    const rows: { identity_id: string }[] = await within.query(
      `SELECT identity_id FROM (
         SELECT identity_id, 0 AS rank FROM identity_credential_identifiers WHERE type = $1 AND identifier = $2
         UNION ALL
         SELECT identity_id, 1 FROM identity_verifiable_addresses WHERE via = 'email' AND value = $2
       ) AS owners ORDER BY rank LIMIT 1`,
      [PASSWORD, email],
    );
    return rows[0]?.identity_id;
  }

  /**
   * `idByEmail` for many e-mails (already normalized) in one statement: each owned one with its owner.
   * An e-mail that is both one identity's login identifier and another's address answers, as there,
   * the identifier's identity.
   */
  async idsByEmail(emails: readonly string[], within: EntityManager): Promise<Map<string, string>> {
    if (emails.length === 0) return new Map();
    const rows: { email: string; identity_id: string }[] = await within.query(
      `SELECT DISTINCT ON (email) email, identity_id FROM (
         SELECT identifier AS email, identity_id, 0 AS rank FROM identity_credential_identifiers WHERE type = $1 AND identifier = ANY($2::text[])
         UNION ALL
         SELECT value, identity_id, 1 FROM identity_verifiable_addresses WHERE via = 'email' AND value = ANY($2::text[])
       ) AS owners ORDER BY email, rank`,
      [PASSWORD, emails],
    );
    return new Map(rows.map((row) => [row.email, row.identity_id]));
  }

  /**
   * One indexed lookup, identifier (already normalized) -> password hash and identity (or undefined), as a
   * read another repository runs inside its own statement: the login submit reads its flow, its
   * failure counts and the credential in one round trip.
   */
  passwordCredentialRead(identifier: string): EmbeddedRead<PasswordCredential | undefined> {
    return {
      sql: (first) => passwordCredentialJson(this.tables, `$${first}`, `$${first + 1}`),
      values: [PASSWORD, identifier],
      parse: (json) => {
        if (json === null || json === undefined) return undefined;
        const row = json as IdentityWithAddressesRow & { hashed_password: string | null };
        // row_to_json writes timestamps as text, where pg would have parsed them into Dates: fromJson.
        const identity = this.tables.identities.fromJson(row);
        return { identityId: identity.id, hashedPassword: row.hashed_password ?? undefined, record: toRecord(this.tables, identity, row) };
      },
    };
  }

  /** Creates or replaces the password credential of an identity; 404 when the identity is gone. */
  async setPassword(identityId: string, hashedPassword: string): Promise<void> {
    if (!isUuid(identityId)) throw IdentitiesError.notFound();
    const now = new Date();
    try {
      await this.dataSource.query(
        `INSERT INTO identity_credentials (id, identity_id, type, config, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (identity_id, type) DO UPDATE SET config = EXCLUDED.config, updated_at = EXCLUDED.updated_at`,
        [randomUUID(), identityId, PASSWORD, JSON.stringify({ hashed_password: hashedPassword }), now],
      );
    } catch (error) {
      if (isForeignKeyViolation(error)) throw IdentitiesError.notFound();
      throw error;
    }
  }

  /** In the caller's transaction when given (its other writes commit or roll back with these), else in a new one. */
  private async writing<T>(within: EntityManager | undefined, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await (within === undefined ? withTransaction(this.dataSource, ({ manager }) => work(manager)) : work(within));
    } catch (error) {
      const state = sqlStateOf(error);
      if (state === SqlState.UniqueViolation) {
        throw IdentitiesError.conflict(CONFLICT_FIELDS[String(violatedConstraintOf(error))] ?? 'traits', error);
      }
      if (state === SqlState.LockNotAvailable) throw IdentitiesError.concurrentUpdate(error);
      throw error;
    }
  }

  private async insertIdentifiers(manager: EntityManager, identityId: string, derived: DerivedTraits): Promise<void> {
    if (derived.identifiers.length === 0) return;
    await manager.insert(
      IdentityCredentialIdentifierEntity,
      derived.identifiers.map(({ identifier, traitPath }) => ({ id: randomUUID(), identityId, type: PASSWORD, identifier, traitPath })),
    );
  }

  private async syncVerifiable(
    manager: EntityManager,
    identityId: string,
    existing: readonly IdentityVerifiableAddressEntity[],
    write: IdentityWrite,
    now: Date,
  ): Promise<IdentityVerifiableAddressEntity[]> {
    const verified = write.addressesVerified === true;
    const { kept, added, removed } = diff(existing, write.derived.verifiableAddresses);
    const confirmed = verified ? kept.filter((address) => !address.verified) : [];
    if (confirmed.length > 0) {
      await manager.update(
        IdentityVerifiableAddressEntity,
        confirmed.map((address) => address.id),
        { verified: true, verifiedAt: now, status: VERIFIED_STATUS, updatedAt: now },
      );
      for (const address of confirmed) Object.assign(address, { verified: true, verifiedAt: now, status: VERIFIED_STATUS, updatedAt: now });
    }
    if (removed.length > 0)
      await manager.delete(
        IdentityVerifiableAddressEntity,
        removed.map((address) => address.id),
      );
    const created = added.map((address) =>
      Object.assign(new IdentityVerifiableAddressEntity(), {
        id: randomUUID(),
        identityId,
        via: address.via,
        value: address.value,
        verified,
        verifiedAt: verified ? now : null,
        status: verified ? VERIFIED_STATUS : 'pending',
        createdAt: now,
        updatedAt: now,
      }),
    );
    if (created.length > 0) await manager.insert(IdentityVerifiableAddressEntity, created);
    return ordered([...kept, ...created]);
  }

  private async syncRecovery(
    manager: EntityManager,
    identityId: string,
    existing: readonly IdentityRecoveryAddressEntity[],
    wanted: readonly DerivedAddress[],
    now: Date,
  ): Promise<IdentityRecoveryAddressEntity[]> {
    const { kept, added, removed } = diff(existing, wanted);
    if (removed.length > 0)
      await manager.delete(
        IdentityRecoveryAddressEntity,
        removed.map((address) => address.id),
      );
    const created = added.map((address) =>
      Object.assign(new IdentityRecoveryAddressEntity(), {
        id: randomUUID(),
        identityId,
        via: address.via,
        value: address.value,
        createdAt: now,
        updatedAt: now,
      }),
    );
    if (created.length > 0) await manager.insert(IdentityRecoveryAddressEntity, created);
    return ordered([...kept, ...created]);
  }

  private async withAddresses(identities: readonly IdentityEntity[]): Promise<IdentityRecord[]> {
    if (identities.length === 0) return [];
    const ids = identities.map((identity) => identity.id);
    const [verifiable, recovery] = await Promise.all([
      this.dataSource.manager
        .createQueryBuilder(IdentityVerifiableAddressEntity, 'address')
        .where('address.identityId IN (:...ids)', { ids })
        .getMany(),
      this.dataSource.manager
        .createQueryBuilder(IdentityRecoveryAddressEntity, 'address')
        .where('address.identityId IN (:...ids)', { ids })
        .getMany(),
    ]);
    return identities.map((identity) => ({
      identity,
      verifiableAddresses: ordered(verifiable.filter((address) => address.identityId === identity.id)),
      recoveryAddresses: ordered(recovery.filter((address) => address.identityId === identity.id)),
    }));
  }
}

function filterByIdentifier(query: SelectQueryBuilder<IdentityEntity>, condition: IdentifierCondition, index: number): void {
  const sub = query
    .subQuery()
    .select('1')
    .from(IdentityCredentialIdentifierEntity, `identifier${index}`)
    .where(`identifier${index}.identityId = identity.id`)
    .andWhere(`identifier${index}.type = :type${index}`)
    .andWhere(`identifier${index}.identifier = :identifier${index}`);
  if (condition.traitPath !== undefined) sub.andWhere(`identifier${index}.traitPath = :path${index}`);
  query.andWhere(`EXISTS ${sub.getQuery()}`, {
    [`type${index}`]: PASSWORD,
    [`identifier${index}`]: condition.identifier,
    [`path${index}`]: condition.traitPath,
  });
}

/** Whether `write` would leave the identity as it is: schema, traits, state, and (when asserted) verified addresses. */
function unchanged(
  current: IdentityEntity,
  write: IdentityWrite,
  state: IdentityState,
  verifiable: readonly IdentityVerifiableAddressEntity[],
): boolean {
  if (current.schemaId !== write.schemaId || current.state !== state || !isDeepStrictEqual(current.traits, write.traits)) return false;
  return write.addressesVerified !== true || verifiable.every((address) => address.verified);
}

interface AddressRow {
  readonly id: string;
  readonly via: string;
  readonly value: string;
  readonly createdAt: Date;
}

function diff<T extends AddressRow>(
  existing: readonly T[],
  wanted: readonly DerivedAddress[],
): { kept: T[]; added: DerivedAddress[]; removed: T[] } {
  const key = (address: { via: string; value: string }): string => `${address.via}\u0000${address.value}`;
  const wantedKeys = new Set(wanted.map(key));
  const existingKeys = new Set(existing.map(key));
  return {
    kept: existing.filter((address) => wantedKeys.has(key(address))),
    added: wanted.filter((address) => !existingKeys.has(key(address))),
    removed: existing.filter((address) => !wantedKeys.has(key(address))),
  };
}

/** Addresses in the order they were added (ties by id): a stable order on the wire. */
function ordered<T extends AddressRow>(addresses: T[]): T[] {
  return addresses.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
