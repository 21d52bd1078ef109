import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, MoreThan, type Repository } from 'typeorm';
import { entityRows, type EntityRows } from '../../database/entity-rows.js';
import type { Announce } from '../../database/change-notifier.js';
import { type NamedStatement, withTransaction, runNamed, runNamedFirst } from '../../database/named-statements.js';
import { SessionEntity, type AuthenticationMethod } from './entities/session.entity.js';

/** What a re-authentication writes. */
const REAUTHENTICATED = [
  'authenticatedAt',
  'authenticationMethods',
  'expiresAt',
  'updatedAt',
] as const satisfies readonly (keyof SessionEntity)[];

/** The statements of every authenticated request and login, on the columns SessionEntity declares (see entityRows). */
function statements(sessions: EntityRows<SessionEntity>) {
  return {
    insert: {
      name: 'self_service_sessions_insert',
      text: `INSERT INTO self_service_sessions (${sessions.columns}) VALUES (${sessions.placeholders()})`,
    },
    findActive: {
      name: 'self_service_sessions_find_active',
      text: `SELECT ${sessions.columns} FROM self_service_sessions WHERE token_hash = $1 AND active AND expires_at > $2`,
    },
    reauthenticated: {
      name: 'self_service_sessions_reauthenticated',
      text: `UPDATE self_service_sessions SET ${sessions.assignments(REAUTHENTICATED, 2)} WHERE id = $1`,
    },
  } satisfies Record<string, NamedStatement>;
}

const REVOKE: NamedStatement = {
  name: 'self_service_sessions_revoke',
  text: `UPDATE self_service_sessions SET active = false, updated_at = $2 WHERE token_hash = $1 AND active AND expires_at > $2`,
};

/** The `self_service_sessions` table, through named statements. Sessions are looked up by token hash only. */
@Injectable()
export class SessionsRepository {
  private readonly sessions: EntityRows<SessionEntity>;
  private readonly statements: ReturnType<typeof statements>;
  private readonly rows: Repository<SessionEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.sessions = entityRows(dataSource, SessionEntity);
    this.statements = statements(this.sessions);
    this.rows = dataSource.getRepository(SessionEntity);
  }

  async insert(session: SessionEntity): Promise<void> {
    await runNamed(this.dataSource, this.statements.insert, this.sessions.values(session));
  }

  /** The active, unexpired session with that token hash (one indexed lookup), or null. */
  async findActive(tokenHash: string, now: Date): Promise<SessionEntity | null> {
    return runNamedFirst(this.dataSource, this.statements.findActive, [tokenHash, now], this.sessions.toEntity);
  }

  /**
   * Marks the session re-authenticated (login `refresh=true`): new `authenticated_at` and expiry,
   * announced in the same transaction.
   */
  async reauthenticated(id: string, methods: AuthenticationMethod[], now: Date, expiresAt: Date, announce: Announce): Promise<void> {
    await withTransaction(this.dataSource, async (transaction) => {
      const changes = { authenticatedAt: now, authenticationMethods: methods, expiresAt, updatedAt: now };
      await transaction.run(this.statements.reauthenticated, [id, ...this.sessions.valuesOf(changes, REAUTHENTICATED)]);
      await announce(transaction);
    });
  }

  /** The active, unexpired sessions of an identity, newest first (a settings page lists them). */
  findActiveOf(identityId: string, now: Date): Promise<SessionEntity[]> {
    return this.rows.find({
      where: { identityId, active: true, expiresAt: MoreThan(now) },
      order: { authenticatedAt: 'DESC' },
    });
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
    await manager.update(SessionEntity, { identityId, active: true }, { active: false, updatedAt: now });
  }
}
