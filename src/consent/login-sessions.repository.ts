import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import { entityRows, type EntityRows } from '../database/entity-rows.js';
import { type NamedStatement, runNamed, runNamedFirst } from '../database/named-statements.js';
import { isUuid } from '../database/uuid.js';
import { LoginSessionEntity } from './entities/login-session.entity.js';

/**
 * What a redeemed login writes on its session: extend a remembered session's window (a skip) or
 * create (or, same sid, overwrite) the session. Written together with the consent request that
 * follows (ConsentRequestsRepository.insertAfterLogin), or alone (`write`) when there is none.
 */
export type LoginSessionWrite =
  | {
      readonly kind: 'extend';
      readonly id: string;
      readonly tokenHash: string;
      readonly expiresAt: Date | null;
      readonly now: Date;
    }
  | { readonly kind: 'upsert'; readonly session: LoginSessionEntity };

/** A remembered session inside its window (for `$2`, now). */
const REMEMBERED = `"remember" = true AND ("expires_at" IS NULL OR "expires_at" > $2)`;

/** The session columns ON CONFLICT overwrites when a browser logs in again under the same sid. */
export const SESSION_UPSERT = `ON CONFLICT ("id") DO UPDATE SET "token_hash" = EXCLUDED."token_hash", "subject" = EXCLUDED."subject",
  "authenticated_at" = EXCLUDED."authenticated_at", "remember" = EXCLUDED."remember", "expires_at" = EXCLUDED."expires_at"`;

/** The statements of every authorization (see runNamed); logout, revocation and the janitor stay on TypeORM. */
function statements(sessions: EntityRows<LoginSessionEntity>) {
  return {
    findRememberedByToken: {
      name: 'consent_findRememberedSessionByToken',
      text: `SELECT ${sessions.columns} FROM "oauth2_authentication_sessions" WHERE "token_hash" = $1 AND ${REMEMBERED}`,
    },
    upsert: {
      name: 'consent_upsertSession',
      text: `INSERT INTO "oauth2_authentication_sessions" (${sessions.columns}) VALUES (${sessions.placeholders()}) ${SESSION_UPSERT}`,
    },
    extend: {
      name: 'consent_extendSession',
      text: `UPDATE "oauth2_authentication_sessions" SET "expires_at" = $4
      WHERE "id" = $1 AND "token_hash" = $3 AND ${REMEMBERED}`,
    },
  } satisfies Record<string, NamedStatement>;
}

/** The `oauth2_authentication_sessions` table. */
@Injectable()
export class LoginSessionsRepository {
  private readonly sessions: EntityRows<LoginSessionEntity>;
  private readonly statements: ReturnType<typeof statements>;

  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(LoginSessionEntity) private readonly rows: Repository<LoginSessionEntity>,
  ) {
    this.sessions = entityRows(dataSource, LoginSessionEntity);
    this.statements = statements(this.sessions);
  }

  /** The remembered, unexpired session whose cookie digest this is, or null. */
  async findRememberedByToken(tokenHash: string, now: Date): Promise<LoginSessionEntity | null> {
    return runNamedFirst(this.dataSource, this.statements.findRememberedByToken, [tokenHash, now], this.sessions.toEntity);
  }

  /**
   * A redeemed login's session write on its own. False when an extend found no remembered session
   * under this cookie any more (an upsert always writes).
   */
  async write(write: LoginSessionWrite): Promise<boolean> {
    if (write.kind === 'upsert') {
      await runNamed(this.dataSource, this.statements.upsert, this.sessions.values(write.session));
      return true;
    }
    const result = await runNamed(this.dataSource, this.statements.extend, extendValues(write));
    return result.rowCount === 1;
  }

  async deleteById(id: string): Promise<void> {
    if (!isUuid(id)) return;
    await this.rows.delete({ id });
  }

  async deleteBySubject(subject: string): Promise<number> {
    const result = await this.rows.delete({ subject });
    return result.affected ?? 0;
  }

  /** Remembered sessions past their window, and sessions never remembered once their flow is over. */
  async deleteExpired(before: Date, flowCutoff: Date): Promise<number> {
    const result = await this.rows
      .createQueryBuilder()
      .delete()
      .where('expires_at < :before', { before })
      .orWhere('(remember = false AND authenticated_at < :flowCutoff)', { flowCutoff })
      .execute();
    return result.affected ?? 0;
  }
}

/** The parameters of an extend: id, now, cookie digest, new end of the window. */
export function extendValues(write: Extract<LoginSessionWrite, { kind: 'extend' }>): unknown[] {
  return [write.id, write.now, write.tokenHash, write.expiresAt];
}
