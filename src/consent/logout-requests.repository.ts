import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import { runNamed, runNamedFirst } from '../database/named-statements.js';
import { LogoutRequestEntity } from './entities/logout-request.entity.js';
import { LOGOUT_REQUEST_COLUMNS, toLogoutRequest } from './request-rows.js';
import { redeemStatement } from './verifier-redemption.js';

/** The hand-off's statements (see runNamed); the janitor's delete stays on TypeORM. */
const STATEMENTS = {
  insert: {
    name: 'consent_insertLogoutRequest',
    text: `INSERT INTO "oauth2_logout_requests" (${LOGOUT_REQUEST_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
  },
  findByChallengeHash: {
    name: 'consent_findLogoutRequest',
    text: `SELECT ${LOGOUT_REQUEST_COLUMNS} FROM "oauth2_logout_requests" WHERE "challenge_hash" = $1`,
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
    LOGOUT_REQUEST_COLUMNS,
  ),
} as const;

/** The `oauth2_logout_requests` table. */
@Injectable()
export class LogoutRequestsRepository {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(LogoutRequestEntity) private readonly rows: Repository<LogoutRequestEntity>,
  ) {}

  async insert(request: LogoutRequestEntity): Promise<void> {
    await runNamed(this.dataSource, STATEMENTS.insert, [
      request.id,
      request.challengeHash,
      request.verifierHash,
      request.subject,
      request.sessionId,
      request.requestUrl,
      request.rpInitiated,
      request.postLogoutRedirectUri,
      request.accepted,
      request.rejected,
      request.wasUsed,
      request.requestedAt,
      request.logoutHint,
      request.uiLocales,
    ]);
  }

  async findByChallengeHash(challengeHash: string): Promise<LogoutRequestEntity | null> {
    return runNamedFirst(this.dataSource, STATEMENTS.findByChallengeHash, [challengeHash], toLogoutRequest);
  }

  /** Accepts (again: a new verifier replaces the old one) unless used or rejected meanwhile. */
  async accept(id: string, verifierHash: string): Promise<boolean> {
    return (await runNamed(this.dataSource, STATEMENTS.accept, [id, verifierHash])).rowCount === 1;
  }

  /** Rejects unless used meanwhile; a rejected request can no longer be read or redeemed. */
  async reject(id: string): Promise<boolean> {
    return (await runNamed(this.dataSource, STATEMENTS.reject, [id])).rowCount === 1;
  }

  /** Redeems an accepted request's verifier once (see LoginRequestsRepository.redeem). */
  redeem(verifierHash: string): Promise<LogoutRequestEntity | null> {
    return runNamedFirst(this.dataSource, STATEMENTS.redeem, [verifierHash], toLogoutRequest);
  }

  async deleteRequestedBefore(cutoff: Date): Promise<number> {
    const result = await this.rows.createQueryBuilder().delete().where('requested_at < :cutoff', { cutoff }).execute();
    return result.affected ?? 0;
  }
}
