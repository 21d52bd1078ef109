import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ConsentError } from './consent.errors.js';
import { isForeignKeyViolation } from './database-errors.js';
import { LoginRequestEntity } from './entities/login-request.entity.js';
import { redeemVerifier } from './verifier-redemption.js';

/** What accept or reject writes on a login request. */
export type LoginDecision = Pick<
  LoginRequestEntity,
  | 'verifierHash'
  | 'subject'
  | 'remember'
  | 'rememberFor'
  | 'acr'
  | 'amr'
  | 'context'
  | 'forceSubjectIdentifier'
  | 'authenticatedAt'
  | 'handledAt'
  | 'error'
>;

/** The `oauth2_login_requests` table. */
@Injectable()
export class LoginRequestsRepository {
  constructor(@InjectRepository(LoginRequestEntity) private readonly rows: Repository<LoginRequestEntity>) {}

  async insert(request: LoginRequestEntity): Promise<void> {
    try {
      await this.rows.insert(request);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw ConsentError.invalidRequest('The OAuth 2.0 client of this request no longer exists.');
      throw error;
    }
  }

  findByChallengeHash(challengeHash: string): Promise<LoginRequestEntity | null> {
    return this.rows.findOneBy({ challengeHash });
  }

  /** Records the decision unless one was recorded already (a login request is answered once). */
  async handle(id: string, decision: LoginDecision): Promise<boolean> {
    const result = await this.rows.createQueryBuilder().update().set(decision).where('id = :id AND handled_at IS NULL', { id }).execute();
    return result.affected === 1;
  }

  /**
   * Redeems a verifier: marks its request used and returns it, or null when no answered, unused
   * request has it. The UPDATE decides, so of two browsers racing with one verifier only one wins.
   */
  redeem(verifierHash: string): Promise<LoginRequestEntity | null> {
    return redeemVerifier(this.rows, verifierHash, 'handled_at IS NOT NULL');
  }

  /** Login requests of flows that can no longer complete; what a consent needs was copied to it. */
  async deleteRequestedBefore(cutoff: Date): Promise<number> {
    const result = await this.rows.createQueryBuilder().delete().where('requested_at < :cutoff', { cutoff }).execute();
    return result.affected ?? 0;
  }
}
