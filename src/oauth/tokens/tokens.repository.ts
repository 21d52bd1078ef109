import { Injectable } from '@nestjs/common';
import type pg from 'pg';
import { DataSource, type EntityManager, type ObjectLiteral, type Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { AccessTokenEntity } from './entities/access-token.entity.js';
import { AuthorizationCodeEntity } from './entities/authorization-code.entity.js';
import { RefreshTokenEntity } from './entities/refresh-token.entity.js';
import type { StoredAccessToken, StoredCode, StoredGrant, StoredRefreshToken } from './stored-token.js';

/** Rows deleted per statement by the janitor: short locks, bounded WAL per statement. */
const DELETE_BATCH = 10_000;

/**
 * Several access tokens in one statement (see AccessTokenBatchWriter). The rows travel as one JSON
 * array parameter: one JSON.stringify for the batch instead of per-column array encoding. Run as a
 * named statement on the pool, so each connection parses and plans it once.
 */
const INSERT_ACCESS_TOKENS = {
  name: 'oauth2_insert_access_tokens',
  text: `
  INSERT INTO "oauth2_access_tokens"
    ("signature", "request_id", "client_id", "consent_id", "subject", "scope", "audience", "session", "issued_at", "expires_at")
  SELECT "signature", "request_id", "client_id", "consent_id", "subject", "scope", "audience", "session",
    to_timestamp("issued_at" / 1000.0), to_timestamp("expires_at" / 1000.0)
  FROM jsonb_to_recordset($1::jsonb) AS row("signature" varchar, "request_id" uuid, "client_id" varchar, "consent_id" uuid,
    "subject" text, "scope" text, "audience" jsonb, "session" jsonb, "issued_at" bigint, "expires_at" bigint)`,
} as const;

export interface ExpiredCounts {
  readonly codes: number;
  readonly accessTokens: number;
  readonly refreshTokens: number;
  readonly jtis: number;
}

/**
 * The token tables. Lookups are by signature (primary key). Writes that must happen together (a code
 * redemption, a refresh rotation) take the EntityManager of the caller's transaction.
 */
@Injectable()
export class TokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The pg pool TypeORM opened (one per process): the busiest write skips the query-runner layer. */
  private get pool(): pg.Pool {
    return (this.dataSource.driver as unknown as { master: pg.Pool }).master;
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async insertCode(code: StoredCode, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(
      AuthorizationCodeEntity,
      row<AuthorizationCodeEntity>({
        ...columnsOf(code),
        signature: code.signature,
        active: true,
        redirectUri: code.redirectUri,
        codeChallenge: code.codeChallenge,
      }),
    );
  }

  async insertAccessToken(token: StoredAccessToken, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(AccessTokenEntity, row<AccessTokenEntity>({ ...columnsOf(token), signature: token.signature }));
  }

  /** Many access tokens in one round trip and one statement, committed when it returns. */
  async insertAccessTokens(tokens: readonly StoredAccessToken[]): Promise<void> {
    const rows = tokens.map((token) => ({
      signature: token.signature,
      request_id: token.requestId,
      client_id: token.clientId,
      consent_id: token.consentId,
      subject: token.subject,
      scope: token.scope.join(' '),
      audience: token.audience,
      session: token.session,
      issued_at: token.issuedAt.getTime(),
      expires_at: token.expiresAt.getTime(),
    }));
    await this.pool.query({ ...INSERT_ACCESS_TOKENS, values: [JSON.stringify(rows)] });
  }

  async insertRefreshToken(token: StoredRefreshToken, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(
      RefreshTokenEntity,
      row<RefreshTokenEntity>({ ...columnsOf(token), signature: token.signature, active: token.active }),
    );
  }

  async findCode(signature: string): Promise<StoredCode | undefined> {
    const row = await this.bySignature(this.dataSource.getRepository(AuthorizationCodeEntity), signature);
    return row === null
      ? undefined
      : { ...grantOf(row), signature: row.signature, active: row.active, redirectUri: row.redirectUri, codeChallenge: row.codeChallenge };
  }

  async findAccessToken(signature: string): Promise<StoredAccessToken | undefined> {
    const row = await this.bySignature(this.dataSource.getRepository(AccessTokenEntity), signature);
    return row === null ? undefined : { ...grantOf(row), signature: row.signature };
  }

  async findRefreshToken(signature: string): Promise<StoredRefreshToken | undefined> {
    const row = await this.bySignature(this.dataSource.getRepository(RefreshTokenEntity), signature);
    return row === null ? undefined : { ...grantOf(row), signature: row.signature, active: row.active };
  }

  /**
   * Marks a code redeemed, only if it still is active: of several concurrent redemptions exactly one
   * gets true (the row lock serialises them; the others then see it inactive).
   */
  async claimCode(signature: string, manager: EntityManager): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(AuthorizationCodeEntity)
      .set({ active: false })
      .where('signature = :signature AND active', { signature })
      .execute();
    return result.affected === 1;
  }

  /** Marks a refresh token used (rotated), only if it still is active; as claimCode. */
  async claimRefreshToken(signature: string, manager: EntityManager): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(RefreshTokenEntity)
      .set({ active: false })
      .where('signature = :signature AND active', { signature })
      .execute();
    return result.affected === 1;
  }

  /**
   * Deletes every access and refresh token of a grant family (codes stay: they are used up already).
   * Families are only ever revoked for user grants, which have a consent; the predicate on consent_id
   * lets the partial family index serve the lookup.
   */
  async revokeFamily(requestId: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await this.deleteAccessTokensOfFamily(requestId, manager);
    await manager.createQueryBuilder().delete().from(RefreshTokenEntity).where('request_id = :requestId', { requestId }).execute();
  }

  async deleteAccessTokensOfFamily(requestId: string, manager: EntityManager): Promise<void> {
    await manager
      .createQueryBuilder()
      .delete()
      .from(AccessTokenEntity)
      .where('request_id = :requestId AND consent_id IS NOT NULL', { requestId })
      .execute();
  }

  async deleteAccessToken(signature: string): Promise<void> {
    await this.dataSource.createQueryBuilder().delete().from(AccessTokenEntity).where('signature = :signature', { signature }).execute();
  }

  /**
   * Records an assertion's jti until `expiresAt`. False when the same client already used it and that
   * record has not expired yet (a replay); an expired record the janitor has not removed yet is reused.
   */
  async recordJti(clientId: string, jtiHash: string, expiresAt: Date): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO "oauth2_used_jtis" ("client_id", "jti_hash", "expires_at") VALUES ($1, $2, $3)
       ON CONFLICT ("client_id", "jti_hash") DO UPDATE SET "expires_at" = EXCLUDED."expires_at"
       WHERE "oauth2_used_jtis"."expires_at" <= now()
       RETURNING 1`,
      [clientId, jtiHash, expiresAt],
    );
    return rows.length === 1;
  }

  /** Deletes everything that expired before `before`, in batches. */
  async deleteExpired(before: Date): Promise<ExpiredCounts> {
    return {
      codes: await this.deleteExpiredFrom('oauth2_authorization_codes', before),
      accessTokens: await this.deleteExpiredFrom('oauth2_access_tokens', before),
      refreshTokens: await this.deleteExpiredFrom('oauth2_refresh_tokens', before),
      jtis: await this.deleteExpiredFrom('oauth2_used_jtis', before),
    };
  }

  /** `table` is one of the literals above, never input. */
  private async deleteExpiredFrom(table: string, before: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const [, affected] = (await this.dataSource.query(
        `DELETE FROM "${table}" WHERE ctid IN (SELECT ctid FROM "${table}" WHERE "expires_at" < $1 LIMIT ${DELETE_BATCH})`,
        [before],
      )) as [unknown, number];
      total += affected;
      if (affected < DELETE_BATCH) return total;
    }
  }

  private bySignature<T extends ObjectLiteral>(repository: Repository<T>, signature: string): Promise<T | null> {
    return repository.createQueryBuilder('token').where('token.signature = :signature', { signature }).getOne();
  }
}

function columnsOf(grant: StoredGrant): Omit<AccessTokenEntity, 'signature' | 'client' | 'consent'> {
  return {
    requestId: grant.requestId,
    clientId: grant.clientId,
    consentId: grant.consentId,
    subject: grant.subject,
    scope: grant.scope.join(' '),
    audience: [...grant.audience],
    session: grant.session,
    issuedAt: grant.issuedAt,
    expiresAt: grant.expiresAt,
  };
}

/**
 * TypeORM's insert typing walks into jsonb columns and cannot follow `unknown` claim values; the
 * columns are complete here, so the row is passed as is.
 */
function row<T>(columns: Omit<T, 'client' | 'consent'>): QueryDeepPartialEntity<T> {
  return columns as unknown as QueryDeepPartialEntity<T>;
}

function grantOf(row: AccessTokenEntity | RefreshTokenEntity | AuthorizationCodeEntity): StoredGrant {
  return {
    requestId: row.requestId,
    clientId: row.clientId,
    consentId: row.consentId,
    subject: row.subject,
    scope: row.scope === '' ? [] : row.scope.split(' '),
    audience: row.audience,
    session: row.session,
    issuedAt: row.issuedAt,
    expiresAt: row.expiresAt,
  };
}
