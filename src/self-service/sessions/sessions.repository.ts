import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Announce } from '../../database/change-notifier.js';
import { type NamedStatement, withTransaction, runNamed, runNamedFirst } from '../../database/named-statements.js';
import { SessionEntity, type AuthenticationMethod } from './entities/session.entity.js';

const COLUMNS =
  'id, token_hash, identity_id, active, issued_at, expires_at, authenticated_at, authentication_methods, created_at, updated_at';

const INSERT: NamedStatement = {
  name: 'self_service_sessions_insert',
  text: `INSERT INTO self_service_sessions (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10)`,
};
const FIND_ACTIVE: NamedStatement = {
  name: 'self_service_sessions_find_active',
  text: `SELECT ${COLUMNS} FROM self_service_sessions WHERE token_hash = $1 AND active AND expires_at > $2`,
};
const REAUTHENTICATED: NamedStatement = {
  name: 'self_service_sessions_reauthenticated',
  text: `UPDATE self_service_sessions
            SET authenticated_at = $2, authentication_methods = $3::jsonb, expires_at = $4, updated_at = $2
          WHERE id = $1`,
};
const REVOKE: NamedStatement = {
  name: 'self_service_sessions_revoke',
  text: `UPDATE self_service_sessions SET active = false, updated_at = $2 WHERE token_hash = $1 AND active AND expires_at > $2`,
};

interface SessionRow {
  id: string;
  token_hash: string;
  identity_id: string;
  active: boolean;
  issued_at: Date;
  expires_at: Date;
  authenticated_at: Date;
  authentication_methods: AuthenticationMethod[];
  created_at: Date;
  updated_at: Date;
}

/** The `self_service_sessions` table, through named statements. Sessions are looked up by token hash only. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(session: SessionEntity): Promise<void> {
    await runNamed(this.dataSource, INSERT, [
      session.id,
      session.tokenHash,
      session.identityId,
      session.active,
      session.issuedAt,
      session.expiresAt,
      session.authenticatedAt,
      JSON.stringify(session.authenticationMethods),
      session.createdAt,
      session.updatedAt,
    ]);
  }

  /** The active, unexpired session with that token hash (one indexed lookup), or null. */
  async findActive(tokenHash: string, now: Date): Promise<SessionEntity | null> {
    return runNamedFirst(this.dataSource, FIND_ACTIVE, [tokenHash, now], toEntity);
  }

  /** Marks the session re-authenticated (login `refresh=true`): new `authenticated_at` and expiry. */
  /** Records a re-authentication and announces it in the same transaction. */
  async reauthenticated(id: string, methods: AuthenticationMethod[], now: Date, expiresAt: Date, announce: Announce): Promise<void> {
    await withTransaction(this.dataSource, async (transaction) => {
      await transaction.run(REAUTHENTICATED, [id, now, JSON.stringify(methods), expiresAt]);
      await announce(transaction);
    });
  }

  /** The active, unexpired sessions of an identity, newest first (a settings page lists them). */
  async findActiveOf(identityId: string, now: Date): Promise<SessionEntity[]> {
    const rows: SessionRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM self_service_sessions WHERE identity_id = $1 AND active AND expires_at > $2 ORDER BY authenticated_at DESC`,
      [identityId, now],
    );
    return rows.map(toEntity);
  }

  /**
   * Deactivates every active session of an identity but `keepId`, announcing each (by its token hash)
   * in the same transaction; returns how many ended.
   */
  async revokeOthers(identityId: string, keepId: string, now: Date, announce: (tokenHash: string) => Announce): Promise<number> {
    return withTransaction(this.dataSource, async (transaction) => {
      const { rows } = await transaction.query<{ token_hash: string }>(
        `UPDATE self_service_sessions SET active = false, updated_at = $3
          WHERE identity_id = $1 AND id <> $2 AND active AND expires_at > $3 RETURNING token_hash`,
        [identityId, keepId, now],
      );
      for (const row of rows) await announce(row.token_hash)(transaction);
      return rows.length;
    });
  }

  /**
   * Deactivates the active, unexpired session with that token hash, announced in the same
   * transaction; false when there was none.
   */
  async revoke(tokenHash: string, now: Date, announce: Announce): Promise<boolean> {
    return withTransaction(this.dataSource, async (transaction) => {
      const revoked = ((await transaction.run(REVOKE, [tokenHash, now])).rowCount ?? 0) > 0;
      if (revoked) await announce(transaction);
      return revoked;
    });
  }

  /** Revokes every active session of an identity, in the caller's transaction. */
  async revokeAllOf(identityId: string, now: Date, manager: EntityManager): Promise<void> {
    await manager.query('UPDATE self_service_sessions SET active = false, updated_at = $2 WHERE identity_id = $1 AND active', [
      identityId,
      now,
    ]);
  }
}

function toEntity(row: SessionRow): SessionEntity {
  return Object.assign(new SessionEntity(), {
    id: row.id,
    tokenHash: row.token_hash,
    identityId: row.identity_id,
    active: row.active,
    issuedAt: row.issued_at,
    expiresAt: row.expires_at,
    authenticatedAt: row.authenticated_at,
    authenticationMethods: row.authentication_methods,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}
