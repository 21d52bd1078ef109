import { Injectable } from '@nestjs/common';
import type pg from 'pg';
import { DataSource } from 'typeorm';
import type { StoredAccessToken, StoredCode, StoredRefreshToken } from './stored-token.js';
import { AccessTokenEntity } from './entities/access-token.entity.js';
import { AuthorizationCodeEntity } from './entities/authorization-code.entity.js';
import { RefreshTokenEntity } from './entities/refresh-token.entity.js';
import { entityRows, type EntityRows } from '../../database/entity-rows.js';
import { type NamedStatement, runNamed, withTransaction } from '../../database/named-statements.js';

/** Rows deleted per statement by the janitor: short locks, bounded WAL per statement. */
const DELETE_BATCH = 10_000;

/**
 * The token tables through named statements on TypeORM's pg pool (parsed and planned once per
 * connection), on the columns the entities declare (see entityRows): these run on every token request,
 * where the query builder and entity hydration cost more than the statements themselves (as in the
 * tuples repository).
 */
function statements(
  codes: EntityRows<AuthorizationCodeEntity>,
  accessTokens: EntityRows<AccessTokenEntity>,
  refreshTokens: EntityRows<RefreshTokenEntity>,
) {
  const texts = {
    insertCode: `INSERT INTO "oauth2_authorization_codes" (${codes.columns}) VALUES (${codes.placeholders()})`,
    insertAccessToken: `INSERT INTO "oauth2_access_tokens" (${accessTokens.columns}) VALUES (${accessTokens.placeholders()})`,
    insertRefreshToken: `INSERT INTO "oauth2_refresh_tokens" (${refreshTokens.columns}) VALUES (${refreshTokens.placeholders()})`,
    /**
     * Several access tokens in one statement (see AccessTokenBatchWriter). The rows travel as one JSON
     * array parameter: one JSON.stringify for the batch instead of per-column array encoding.
     */
    insertAccessTokens: `INSERT INTO "oauth2_access_tokens" (${accessTokens.columns}) ${accessTokens.recordset('$1')}`,
    findCode: `SELECT ${codes.columns} FROM "oauth2_authorization_codes" WHERE "signature" = $1`,
    findAccessToken: `SELECT ${accessTokens.columns} FROM "oauth2_access_tokens" WHERE "signature" = $1`,
    findRefreshToken: `SELECT ${refreshTokens.columns} FROM "oauth2_refresh_tokens" WHERE "signature" = $1`,
    claimCode: `UPDATE "oauth2_authorization_codes" SET "active" = false WHERE "signature" = $1 AND "active"`,
    claimRefreshToken: `UPDATE "oauth2_refresh_tokens" SET "active" = false WHERE "signature" = $1 AND "active"`,
    /**
     * Families are revoked only for user grants, which have a consent: the predicate on consent_id lets
     * the partial family index (which client_credentials tokens skip) serve the lookup.
     */
    deleteAccessTokensOfFamily: `DELETE FROM "oauth2_access_tokens" WHERE "request_id" = $1 AND "consent_id" IS NOT NULL`,
    revokeFamily: `WITH "access" AS (DELETE FROM "oauth2_access_tokens" WHERE "request_id" = $1 AND "consent_id" IS NOT NULL)
    DELETE FROM "oauth2_refresh_tokens" WHERE "request_id" = $1`,
    deleteAccessToken: `DELETE FROM "oauth2_access_tokens" WHERE "signature" = $1`,
  };
  return Object.fromEntries(Object.entries(texts).map(([name, text]) => [name, { name: `oauth2_${name}`, text }])) as Record<
    keyof typeof texts,
    NamedStatement
  >;
}

type TokenStatementMap = ReturnType<typeof statements>;
type StatementName = keyof TokenStatementMap;

/** The entity rows of the three token tables. */
interface TokenTables {
  readonly codes: EntityRows<AuthorizationCodeEntity>;
  readonly accessTokens: EntityRows<AccessTokenEntity>;
  readonly refreshTokens: EntityRows<RefreshTokenEntity>;
  readonly statements: TokenStatementMap;
}

export interface ExpiredCounts {
  readonly codes: number;
  readonly accessTokens: number;
  readonly refreshTokens: number;
  readonly jtis: number;
}

/** The writes that go together in one transaction (a code redemption, a refresh rotation, a hybrid response). */
export interface TokenWrites {
  insertCode(code: StoredCode): Promise<void>;
  insertAccessToken(token: StoredAccessToken): Promise<void>;
  insertRefreshToken(token: StoredRefreshToken): Promise<void>;
  /**
   * Marks a code redeemed, only if it still is active: of several concurrent redemptions exactly one
   * gets true (the row lock serialises them; the others then see it inactive).
   */
  claimCode(signature: string): Promise<boolean>;
  /** Marks a refresh token used (rotated), only if it still is active; as claimCode. */
  claimRefreshToken(signature: string): Promise<boolean>;
  deleteAccessTokensOfFamily(requestId: string): Promise<void>;
}

/** Runs a named statement on the pool (runNamed) or in a transaction (Transaction.run). */
type RunNamed = <R extends pg.QueryResultRow>(statement: NamedStatement, values: readonly unknown[]) => Promise<pg.QueryResult<R>>;

/** The named statements on the pool or in one transaction. */
class TokenStatements implements TokenWrites {
  constructor(
    private readonly tables: TokenTables,
    private readonly runNamed: RunNamed,
  ) {}

  async run<R extends pg.QueryResultRow>(name: StatementName, values: readonly unknown[]): Promise<pg.QueryResult<R>> {
    return this.runNamed<R>(this.tables.statements[name], values);
  }

  async insertCode(code: StoredCode): Promise<void> {
    await this.run('insertCode', this.tables.codes.values(code));
  }

  async insertAccessToken(token: StoredAccessToken): Promise<void> {
    await this.run('insertAccessToken', this.tables.accessTokens.values(token));
  }

  async insertRefreshToken(token: StoredRefreshToken): Promise<void> {
    await this.run('insertRefreshToken', this.tables.refreshTokens.values(token));
  }

  async claimCode(signature: string): Promise<boolean> {
    return (await this.run('claimCode', [signature])).rowCount === 1;
  }

  async claimRefreshToken(signature: string): Promise<boolean> {
    return (await this.run('claimRefreshToken', [signature])).rowCount === 1;
  }

  async deleteAccessTokensOfFamily(requestId: string): Promise<void> {
    await this.run('deleteAccessTokensOfFamily', [requestId]);
  }
}

/**
 * The token tables. Lookups are by signature (primary key). Writes that must happen together (a code
 * redemption, a refresh rotation) run in `transaction`, on one connection.
 */
@Injectable()
export class TokensRepository {
  private readonly tables: TokenTables;
  /** On the pool (runNamed): token statements skip the query-runner layer. */
  private readonly direct: TokenStatements;

  constructor(private readonly dataSource: DataSource) {
    const codes = entityRows(dataSource, AuthorizationCodeEntity);
    const accessTokens = entityRows(dataSource, AccessTokenEntity);
    const refreshTokens = entityRows(dataSource, RefreshTokenEntity);
    this.tables = { codes, accessTokens, refreshTokens, statements: statements(codes, accessTokens, refreshTokens) };
    this.direct = new TokenStatements(this.tables, (statement, values) => runNamed(this.dataSource, statement, values));
  }

  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (writes: TokenWrites) => Promise<T>): Promise<T> {
    return withTransaction(this.dataSource, (transaction) =>
      work(new TokenStatements(this.tables, (statement, values) => transaction.run(statement, values))),
    );
  }

  insertCode(code: StoredCode): Promise<void> {
    return this.direct.insertCode(code);
  }

  insertAccessToken(token: StoredAccessToken): Promise<void> {
    return this.direct.insertAccessToken(token);
  }

  /** Many access tokens in one round trip and one statement, committed when it returns. */
  async insertAccessTokens(tokens: readonly StoredAccessToken[]): Promise<void> {
    await this.direct.run('insertAccessTokens', [JSON.stringify(this.tables.accessTokens.recordsetRows(tokens))]);
  }

  async findCode(signature: string): Promise<StoredCode | undefined> {
    const [row] = (await this.direct.run('findCode', [signature])).rows;
    return row === undefined ? undefined : this.tables.codes.toEntity(row);
  }

  async findAccessToken(signature: string): Promise<StoredAccessToken | undefined> {
    const [row] = (await this.direct.run('findAccessToken', [signature])).rows;
    return row === undefined ? undefined : this.tables.accessTokens.toEntity(row);
  }

  async findRefreshToken(signature: string): Promise<StoredRefreshToken | undefined> {
    const [row] = (await this.direct.run('findRefreshToken', [signature])).rows;
    return row === undefined ? undefined : this.tables.refreshTokens.toEntity(row);
  }

  /** Deletes every access and refresh token of a grant family, in one statement (codes stay: they are used up already). */
  async revokeFamily(requestId: string): Promise<void> {
    await this.direct.run('revokeFamily', [requestId]);
  }

  async deleteAccessToken(signature: string): Promise<void> {
    await this.direct.run('deleteAccessToken', [signature]);
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
}
