import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { isUuid } from './database-errors.js';
import { LoginSessionEntity } from './entities/login-session.entity.js';

/** The `oauth2_authentication_sessions` table. */
@Injectable()
export class LoginSessionsRepository {
  constructor(@InjectRepository(LoginSessionEntity) private readonly rows: Repository<LoginSessionEntity>) {}

  /** The remembered, unexpired session whose cookie digest this is, or null. */
  findRememberedByToken(tokenHash: string, now: Date): Promise<LoginSessionEntity | null> {
    return this.remembered(now).andWhere('session.tokenHash = :tokenHash', { tokenHash }).getOne();
  }

  /** The remembered, unexpired session with this id (`sid`), or null. */
  async findRememberedById(id: string, now: Date): Promise<LoginSessionEntity | null> {
    if (!isUuid(id)) return null;
    return this.remembered(now).andWhere('session.id = :id', { id }).getOne();
  }

  /** Creates the session or, when a browser logs in again under the same sid, overwrites it. */
  async upsert(session: LoginSessionEntity): Promise<void> {
    await this.rows
      .createQueryBuilder()
      .insert()
      .values(session)
      .orUpdate(['token_hash', 'subject', 'authenticated_at', 'remember', 'expires_at'], ['id'])
      .execute();
  }

  /** Moves the end of a remembered session's window, if the session still exists under this cookie. */
  async extend(id: string, tokenHash: string, expiresAt: Date | null, now: Date): Promise<boolean> {
    const result = await this.rows
      .createQueryBuilder()
      .update()
      .set({ expiresAt })
      .where('id = :id AND token_hash = :tokenHash AND remember = true', { id, tokenHash })
      .andWhere('(expires_at IS NULL OR expires_at > :now)', { now })
      .execute();
    return result.affected === 1;
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

  private remembered(now: Date) {
    return this.rows
      .createQueryBuilder('session')
      .where('session.remember = true')
      .andWhere('(session.expiresAt IS NULL OR session.expiresAt > :now)', { now });
  }
}
