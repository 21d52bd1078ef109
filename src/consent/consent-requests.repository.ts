import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository, SelectQueryBuilder } from 'typeorm';
import type { Page } from '../common/pagination/page.js';
import { ConsentError } from './consent.errors.js';
import { isForeignKeyViolation } from './database-errors.js';
import { ConsentRequestEntity } from './entities/consent-request.entity.js';
import { redeemVerifier } from './verifier-redemption.js';

/** What accept or reject writes on a consent request. */
export type ConsentDecision = Pick<
  ConsentRequestEntity,
  | 'verifierHash'
  | 'grantedScope'
  | 'grantedAudience'
  | 'remember'
  | 'rememberFor'
  | 'sessionAccessToken'
  | 'sessionIdToken'
  | 'handledAt'
  | 'error'
>;

/**
 * How many remembered consents of one subject and client are weighed for a skip, newest first. Each
 * one comes from a real consent screen, so more than this means the older ones no longer matter.
 */
const REMEMBERED_CANDIDATES = 100;

/** The `oauth2_consent_requests` table: consent requests, and the consent sessions they become. */
@Injectable()
export class ConsentRequestsRepository {
  constructor(@InjectRepository(ConsentRequestEntity) private readonly rows: Repository<ConsentRequestEntity>) {}

  async insert(request: ConsentRequestEntity): Promise<void> {
    try {
      await this.rows.insert(request);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw ConsentError.loginRequired('The login session or the client ended during the flow.');
      throw error;
    }
  }

  findByChallengeHash(challengeHash: string): Promise<ConsentRequestEntity | null> {
    return this.rows.findOneBy({ challengeHash });
  }

  /** Records (or replaces) the decision until the browser redeems the verifier. */
  async handle(id: string, decision: ConsentDecision): Promise<boolean> {
    const result = await this.rows.createQueryBuilder().update().set(decision).where('id = :id AND was_used = false', { id }).execute();
    return result.affected === 1;
  }

  /** Redeems a verifier once (see LoginRequestsRepository.redeem). */
  redeem(verifierHash: string): Promise<ConsentRequestEntity | null> {
    return redeemVerifier(this.rows, verifierHash, 'handled_at IS NOT NULL');
  }

  /** Remembered, unexpired consents of a subject for a client, newest first. */
  findRemembered(subject: string, clientId: string, now: Date): Promise<ConsentRequestEntity[]> {
    return this.sessions(subject, now)
      .andWhere('consent.clientId = :clientId', { clientId })
      .orderBy('consent.requestedAt', 'DESC')
      .limit(REMEMBERED_CANDIDATES)
      .getMany();
  }

  /** The subject identifier last forced for this subject at this client, '' when none. */
  async forcedSubjectIdentifier(subject: string, clientId: string): Promise<string> {
    const row = await this.rows
      .createQueryBuilder('consent')
      .select('consent.forceSubjectIdentifier', 'forced')
      .where('consent.subject = :subject AND consent.clientId = :clientId', { subject, clientId })
      .andWhere("consent.wasUsed = true AND consent.error IS NULL AND consent.forceSubjectIdentifier <> ''")
      .orderBy('consent.requestedAt', 'DESC')
      .limit(1)
      .getRawOne<{ forced: string }>();
    return row?.forced ?? '';
  }

  /**
   * The clients a subject was granted something at within one login session (`sid`): one row per
   * client, granted and redeemed (so tokens were issued), with the subject identifier forced at its
   * newest such grant ('' when none). Skipped consents count: the client got tokens all the same.
   */
  findClientsOfLoginSession(loginSessionId: string, subject: string): Promise<{ clientId: string; forcedSubjectIdentifier: string }[]> {
    return this.rows
      .createQueryBuilder('consent')
      .distinctOn(['consent.clientId'])
      .select('consent.clientId', 'clientId')
      .addSelect('consent.forceSubjectIdentifier', 'forcedSubjectIdentifier')
      .where('consent.loginSessionId = :loginSessionId AND consent.subject = :subject', { loginSessionId, subject })
      .andWhere('consent.wasUsed = true AND consent.error IS NULL')
      .orderBy('consent.clientId', 'ASC')
      .addOrderBy('consent.requestedAt', 'DESC')
      .getRawMany<{ clientId: string; forcedSubjectIdentifier: string }>();
  }

  /** One page of a subject's consent sessions (remembered, unexpired), newest first, and their count. */
  async findSessionPage(subject: string, page: Page, now: Date): Promise<{ rows: ConsentRequestEntity[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.sessions(subject, now)
        .orderBy('consent.requestedAt', 'DESC')
        .addOrderBy('consent.id', 'ASC')
        .limit(page.limit)
        .offset(page.offset)
        .getMany(),
      this.sessions(subject, now).getCount(),
    ]);
    return { rows, total };
  }

  /** Deletes a subject's consents (one client's, or all); tokens referencing them go too. */
  async deleteBySubject(subject: string, clientId: string | undefined): Promise<number> {
    const result = await this.rows.delete(clientId === undefined ? { subject } : { subject, clientId });
    return result.affected ?? 0;
  }

  /** Requests of finished flows that never became a grant (unanswered, unredeemed or rejected): nothing references them. */
  async deleteUngrantedBefore(cutoff: Date): Promise<number> {
    const result = await this.rows
      .createQueryBuilder()
      .delete()
      .where('requested_at < :cutoff', { cutoff })
      .andWhere('(was_used = false OR error IS NOT NULL)')
      .execute();
    return result.affected ?? 0;
  }

  /**
   * Consent sessions: granted and redeemed, remembered, not themselves a skip (a skip only repeats an
   * earlier consent), and inside their window (`remember_for` 0 = until revoked).
   */
  private sessions(subject: string, now: Date): SelectQueryBuilder<ConsentRequestEntity> {
    return this.rows
      .createQueryBuilder('consent')
      .where('consent.subject = :subject', { subject })
      .andWhere('consent.wasUsed = true AND consent.error IS NULL AND consent.remember = true AND consent.skip = false')
      .andWhere("(consent.rememberFor = 0 OR consent.requestedAt + consent.rememberFor * interval '1 second' > :now)", { now });
  }
}
