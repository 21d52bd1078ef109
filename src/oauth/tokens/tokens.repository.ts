import { Injectable } from '@nestjs/common';
import type pg from 'pg';
import { DataSource } from 'typeorm';
import type { StoredAccessToken, StoredCode, StoredGrant, StoredRefreshToken } from './stored-token.js';
import type { TokenSession } from './token-session.js';
import { type NamedStatement, runNamed, withTransaction } from '../../database/named-statements.js';

/** Rows deleted per statement by the janitor: short locks, bounded WAL per statement. */
const DELETE_BATCH = 10_000;

const GRANT_COLUMNS = `"request_id", "client_id", "consent_id", "subject", "scope", "audience", "session", "issued_at", "expires_at"`;

/**
 * The token tables through raw parameterised SQL on TypeORM's pg pool, as named statements (parsed and
 * planned once per connection): these run on every token request, where the query builder and entity
 * hydration cost more than the statements themselves (as in the tuples repository).
 */
const STATEMENTS = {
  insertCode: `INSERT INTO "oauth2_authorization_codes" ("signature", ${GRANT_COLUMNS}, "active", "redirect_uri", "code_challenge")
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
  insertAccessToken: `INSERT INTO "oauth2_access_tokens" ("signature", ${GRANT_COLUMNS})
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
  insertRefreshToken: `INSERT INTO "oauth2_refresh_tokens" ("signature", ${GRANT_COLUMNS}, "active")
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
  /**
   * Several access tokens in one statement (see AccessTokenBatchWriter). The rows travel as one JSON
   * array parameter: one JSON.stringify for the batch instead of per-column array encoding.
   */
  insertAccessTokens: `INSERT INTO "oauth2_access_tokens" ("signature", ${GRANT_COLUMNS})
    SELECT "signature", "request_id", "client_id", "consent_id", "subject", "scope", "audience", "session",
      to_timestamp("issued_at" / 1000.0), to_timestamp("expires_at" / 1000.0)
    FROM jsonb_to_recordset($1::jsonb) AS row("signature" varchar, "request_id" uuid, "client_id" varchar, "consent_id" uuid,
      "subject" text, "scope" text, "audience" jsonb, "session" jsonb, "issued_at" bigint, "expires_at" bigint)`,
  findCode: `SELECT "signature", ${GRANT_COLUMNS}, "active", "redirect_uri", "code_challenge"
    FROM "oauth2_authorization_codes" WHERE "signature" = $1`,
  findAccessToken: `SELECT "signature", ${GRANT_COLUMNS} FROM "oauth2_access_tokens" WHERE "signature" = $1`,
  findRefreshToken: `SELECT "signature", ${GRANT_COLUMNS}, "active" FROM "oauth2_refresh_tokens" WHERE "signature" = $1`,
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
} as const;

type StatementName = keyof typeof STATEMENTS;

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

interface GrantRow {
  readonly signature: string;
  readonly request_id: string;
  readonly client_id: string;
  readonly consent_id: string | null;
  readonly subject: string;
  readonly scope: string;
  readonly audience: string[];
  readonly session: TokenSession;
  readonly issued_at: Date;
  readonly expires_at: Date;
}

interface CodeRow extends GrantRow {
  readonly active: boolean;
  readonly redirect_uri: string;
  readonly code_challenge: string | null;
}

interface RefreshRow extends GrantRow {
  readonly active: boolean;
}

/** Runs a named statement on the pool (runNamed) or in a transaction (Transaction.run). */
type RunNamed = <R extends pg.QueryResultRow>(statement: NamedStatement, values: readonly unknown[]) => Promise<pg.QueryResult<R>>;

/** The named statements, by name (`oauth2_` + key). */
const NAMED = Object.fromEntries(Object.entries(STATEMENTS).map(([name, text]) => [name, { name: `oauth2_${name}`, text }])) as Record<
  StatementName,
  NamedStatement
>;

/** The named statements on the pool or in one transaction. */
class TokenStatements implements TokenWrites {
  constructor(private readonly runNamed: RunNamed) {}

  async run<R extends pg.QueryResultRow>(name: StatementName, values: unknown[]): Promise<pg.QueryResult<R>> {
    return this.runNamed<R>(NAMED[name], values);
  }

  async insertCode(code: StoredCode): Promise<void> {
    await this.run('insertCode', [code.signature, ...grantValues(code), code.active, code.redirectUri, code.codeChallenge]);
  }

  async insertAccessToken(token: StoredAccessToken): Promise<void> {
    await this.run('insertAccessToken', [token.signature, ...grantValues(token)]);
  }

  async insertRefreshToken(token: StoredRefreshToken): Promise<void> {
    await this.run('insertRefreshToken', [token.signature, ...grantValues(token), token.active]);
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
  private statements: TokenStatements | undefined;

  constructor(private readonly dataSource: DataSource) {}

  /** On the pool (runNamed): token statements skip the query-runner layer. */
  private get direct(): TokenStatements {
    this.statements ??= new TokenStatements((statement, values) => runNamed(this.dataSource, statement, values));
    return this.statements;
  }

  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (writes: TokenWrites) => Promise<T>): Promise<T> {
    return withTransaction(this.dataSource, (transaction) =>
      work(new TokenStatements((statement, values) => transaction.run(statement, values))),
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
    await this.direct.run('insertAccessTokens', [JSON.stringify(rows)]);
  }

  async findCode(signature: string): Promise<StoredCode | undefined> {
    const [row] = (await this.direct.run<CodeRow>('findCode', [signature])).rows;
    return row === undefined
      ? undefined
      : { ...grantOf(row), signature: row.signature, active: row.active, redirectUri: row.redirect_uri, codeChallenge: row.code_challenge };
  }

  async findAccessToken(signature: string): Promise<StoredAccessToken | undefined> {
    const [row] = (await this.direct.run<GrantRow>('findAccessToken', [signature])).rows;
    return row === undefined ? undefined : { ...grantOf(row), signature: row.signature };
  }

  async findRefreshToken(signature: string): Promise<StoredRefreshToken | undefined> {
    const [row] = (await this.direct.run<RefreshRow>('findRefreshToken', [signature])).rows;
    return row === undefined ? undefined : { ...grantOf(row), signature: row.signature, active: row.active };
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

/** The grant columns after the signature, in GRANT_COLUMNS order; jsonb values go as JSON text. */
function grantValues(grant: StoredGrant): unknown[] {
  return [
    grant.requestId,
    grant.clientId,
    grant.consentId,
    grant.subject,
    grant.scope.join(' '),
    JSON.stringify(grant.audience),
    JSON.stringify(grant.session),
    grant.issuedAt,
    grant.expiresAt,
  ];
}

function grantOf(row: GrantRow): StoredGrant {
  return {
    requestId: row.request_id,
    clientId: row.client_id,
    consentId: row.consent_id,
    subject: row.subject,
    scope: row.scope === '' ? [] : row.scope.split(' '),
    audience: row.audience,
    session: row.session,
    issuedAt: row.issued_at,
    expiresAt: row.expires_at,
  };
}
