import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import { entityRows, type EntityRows } from '../database/entity-rows.js';
import { type NamedStatement, runNamed, runNamedFirst } from '../database/named-statements.js';
import { LogoutRequestEntity } from './entities/logout-request.entity.js';
import { redeemStatement } from './verifier-redemption.js';

/** The hand-off's statements (see runNamed); the janitor's delete stays on TypeORM. */
function statements(requests: EntityRows<LogoutRequestEntity>) {
  return {
    insert: {
      name: 'consent_insertLogoutRequest',
      text: `INSERT INTO "oauth2_logout_requests" (${requests.columns}) VALUES (${requests.placeholders()})`,
    },
    findByChallengeHash: {
      name: 'consent_findLogoutRequest',
      text: `SELECT ${requests.columns} FROM "oauth2_logout_requests" WHERE "challenge_hash" = $1`,
    },
    accept: {
      name: 'consent_acceptLogoutRequest',
      text: `UPDATE "oauth2_logout_requests" SET "accepted" = true, "verifier_hash" = $2
      WHERE "id" = $1 AND "was_used" = false AND "rejected" = false`,
    },
    reject: {
      name: 'consent_rejectLogoutRequest',
      text: `UPDATE "oauth2_logout_requests" SET "rejected" = true, "verifier_hash" = NULL WHERE "id" = $1 AND "was_used" = false`,
    },
    redeem: redeemStatement(
      'consent_redeemLogoutRequest',
      'oauth2_logout_requests',
      '"accepted" = true AND "rejected" = false',
      requests.columns,
    ),
  } satisfies Record<string, NamedStatement>;
}

/** The `oauth2_logout_requests` table. */
@Injectable()
export class LogoutRequestsRepository {
  private readonly requests: EntityRows<LogoutRequestEntity>;
  private readonly statements: ReturnType<typeof statements>;

  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(LogoutRequestEntity) private readonly rows: Repository<LogoutRequestEntity>,
  ) {
    this.requests = entityRows(dataSource, LogoutRequestEntity);
    this.statements = statements(this.requests);
  }

  async insert(request: LogoutRequestEntity): Promise<void> {
    await runNamed(this.dataSource, this.statements.insert, this.requests.values(request));
  }

  async findByChallengeHash(challengeHash: string): Promise<LogoutRequestEntity | null> {
    return runNamedFirst(this.dataSource, this.statements.findByChallengeHash, [challengeHash], this.requests.toEntity);
  }

  /** Accepts (again: a new verifier replaces the old one) unless used or rejected meanwhile. */
  async accept(id: string, verifierHash: string): Promise<boolean> {
    return (await runNamed(this.dataSource, this.statements.accept, [id, verifierHash])).rowCount === 1;
  }

  /** Rejects unless used meanwhile; a rejected request can no longer be read or redeemed. */
  async reject(id: string): Promise<boolean> {
    return (await runNamed(this.dataSource, this.statements.reject, [id])).rowCount === 1;
  }

  /** Redeems an accepted request's verifier once (see LoginRequestsRepository.redeem). */
  redeem(verifierHash: string): Promise<LogoutRequestEntity | null> {
    return runNamedFirst(this.dataSource, this.statements.redeem, [verifierHash], this.requests.toEntity);
  }

  async deleteRequestedBefore(cutoff: Date): Promise<number> {
    const result = await this.rows.createQueryBuilder().delete().where('requested_at < :cutoff', { cutoff }).execute();
    return result.affected ?? 0;
  }
}
