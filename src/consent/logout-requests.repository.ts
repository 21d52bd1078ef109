import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import { entityRows, type EntityRows } from '../database/entity-rows.js';
import { type NamedStatement, runNamedFirst } from '../database/named-statements.js';
import { LogoutRequestEntity } from './entities/logout-request.entity.js';
import { redeemStatement } from './verifier-redemption.js';

/**
 * The redemption, one statement that both decides (of two racing browsers only one wins) and returns
 * the request (see redeemStatement). Logout is not on a measured path: the rest is plain TypeORM.
 */
function redeem(requests: EntityRows<LogoutRequestEntity>): NamedStatement {
  return redeemStatement(
    'consent_redeemLogoutRequest',
    'oauth2_logout_requests',
    '"accepted" = true AND "rejected" = false',
    requests.columns,
  );
}

/** The `oauth2_logout_requests` table. */
@Injectable()
export class LogoutRequestsRepository {
  private readonly requests: EntityRows<LogoutRequestEntity>;
  private readonly redeemStatement: NamedStatement;

  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(LogoutRequestEntity) private readonly rows: Repository<LogoutRequestEntity>,
  ) {
    this.requests = entityRows(dataSource, LogoutRequestEntity);
    this.redeemStatement = redeem(this.requests);
  }

  async insert(request: LogoutRequestEntity): Promise<void> {
    await this.rows.insert(request);
  }

  async findByChallengeHash(challengeHash: string): Promise<LogoutRequestEntity | null> {
    return this.rows.findOneBy({ challengeHash });
  }

  /** Accepts (again: a new verifier replaces the old one) unless used or rejected meanwhile. */
  async accept(id: string, verifierHash: string): Promise<boolean> {
    return (await this.rows.update({ id, wasUsed: false, rejected: false }, { accepted: true, verifierHash })).affected === 1;
  }

  /** Rejects unless used meanwhile; a rejected request can no longer be read or redeemed. */
  async reject(id: string): Promise<boolean> {
    return (await this.rows.update({ id, wasUsed: false }, { rejected: true, verifierHash: null })).affected === 1;
  }

  /** Redeems an accepted request's verifier once (see LoginRequestsRepository.redeem). */
  redeem(verifierHash: string): Promise<LogoutRequestEntity | null> {
    return runNamedFirst(this.dataSource, this.redeemStatement, [verifierHash], this.requests.toEntity);
  }

  async deleteRequestedBefore(cutoff: Date): Promise<number> {
    const result = await this.rows.createQueryBuilder().delete().where('requested_at < :cutoff', { cutoff }).execute();
    return result.affected ?? 0;
  }
}
