import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { LogoutRequestEntity } from './entities/logout-request.entity.js';
import { redeemVerifier } from './verifier-redemption.js';

/** The `oauth2_logout_requests` table. */
@Injectable()
export class LogoutRequestsRepository {
  constructor(@InjectRepository(LogoutRequestEntity) private readonly rows: Repository<LogoutRequestEntity>) {}

  async insert(request: LogoutRequestEntity): Promise<void> {
    await this.rows.insert(request);
  }

  findByChallengeHash(challengeHash: string): Promise<LogoutRequestEntity | null> {
    return this.rows.findOneBy({ challengeHash });
  }

  /** Accepts (again: a new verifier replaces the old one) unless used or rejected meanwhile. */
  async accept(id: string, verifierHash: string): Promise<boolean> {
    const result = await this.rows
      .createQueryBuilder()
      .update()
      .set({ accepted: true, verifierHash })
      .where('id = :id AND was_used = false AND rejected = false', { id })
      .execute();
    return result.affected === 1;
  }

  /** Rejects unless used meanwhile; a rejected request can no longer be read or redeemed. */
  async reject(id: string): Promise<boolean> {
    const result = await this.rows
      .createQueryBuilder()
      .update()
      .set({ rejected: true, verifierHash: null })
      .where('id = :id AND was_used = false', { id })
      .execute();
    return result.affected === 1;
  }

  /** Redeems an accepted request's verifier once (see LoginRequestsRepository.redeem). */
  redeem(verifierHash: string): Promise<LogoutRequestEntity | null> {
    return redeemVerifier(this.rows, verifierHash, 'accepted = true AND rejected = false');
  }

  async deleteRequestedBefore(cutoff: Date): Promise<number> {
    const result = await this.rows.createQueryBuilder().delete().where('requested_at < :cutoff', { cutoff }).execute();
    return result.affected ?? 0;
  }
}
