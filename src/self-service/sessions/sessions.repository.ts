import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { row } from '../database-row.js';
import { SessionEntity, type AuthenticationMethod } from './entities/session.entity.js';

/** The `self_service_sessions` table. Sessions are looked up by token hash only. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(session: SessionEntity): Promise<void> {
    await this.dataSource.manager.insert(SessionEntity, row<SessionEntity>(session));
  }

  /** The active, unexpired session with that token hash (one indexed lookup), or null. */
  findActive(tokenHash: string, now: Date): Promise<SessionEntity | null> {
    return this.dataSource.manager
      .createQueryBuilder(SessionEntity, 'session')
      .where('session.tokenHash = :tokenHash', { tokenHash })
      .andWhere('session.active = true')
      .andWhere('session.expiresAt > :now', { now })
      .getOne();
  }

  /** Marks the session re-authenticated (login `refresh=true`): new `authenticated_at` and expiry. */
  async reauthenticated(id: string, methods: AuthenticationMethod[], now: Date, expiresAt: Date): Promise<void> {
    await this.dataSource.manager.update(
      SessionEntity,
      { id },
      row<SessionEntity>({ authenticatedAt: now, authenticationMethods: methods, expiresAt, updatedAt: now }),
    );
  }

  /** Deactivates the active, unexpired session with that token hash; false when there was none. */
  async revoke(tokenHash: string, now: Date): Promise<boolean> {
    const result = await this.dataSource.manager
      .createQueryBuilder()
      .update(SessionEntity)
      .set({ active: false, updatedAt: now })
      .where('tokenHash = :tokenHash', { tokenHash })
      .andWhere('active = true')
      .andWhere('expires_at > :now', { now })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
