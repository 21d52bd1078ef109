import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import { entityRows, type EntityRows } from '../database/entity-rows.js';
import { jsonb, type NamedStatement, runNamed, runNamedFirst } from '../database/named-statements.js';
import { ConsentError } from './consent.errors.js';
import { isForeignKeyViolation } from '../database/sql-state.js';
import { LoginRequestEntity } from './entities/login-request.entity.js';
import { redeemStatement } from './verifier-redemption.js';

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

/** What accept and reject both write of the answer ($2-$9 of `handle` and `accept`). */
type LoginAnswer = Pick<
  LoginDecision,
  'verifierHash' | 'subject' | 'remember' | 'rememberFor' | 'acr' | 'amr' | 'context' | 'forceSubjectIdentifier'
>;

/** What accept writes on a login request (see LoginRequestsRepository.accept). */
export type LoginAcceptance = LoginAnswer & { readonly handledAt: Date };

/** The statements of every authorization (see runNamed); the janitor's delete stays on TypeORM. */
function statements(requests: EntityRows<LoginRequestEntity>) {
  return {
    insert: {
      name: 'consent_insertLoginRequest',
      text: `INSERT INTO "oauth2_login_requests" (${requests.columns}) VALUES (${requests.placeholders()})`,
    },
    findByChallengeHash: {
      name: 'consent_findLoginRequest',
      text: `SELECT ${requests.columns} FROM "oauth2_login_requests" WHERE "challenge_hash" = $1`,
    },
    handle: {
      name: 'consent_handleLoginRequest',
      text: `UPDATE "oauth2_login_requests" SET "verifier_hash" = $2, "subject" = $3, "remember" = $4, "remember_for" = $5,
      "acr" = $6, "amr" = $7, "context" = $8, "force_subject_identifier" = $9, "authenticated_at" = $10, "handled_at" = $11,
      "error" = $12
      WHERE "id" = $1 AND "handled_at" IS NULL`,
    },
    /**
     * Accept, decided by the UPDATE's conditions: a live (`requested_at` not before $11), unanswered
     * request whose subject, when it was a skip, is the one accepted. A skip stays remembered and keeps
     * the session's authentication time.
     */
    accept: {
      name: 'consent_acceptLoginRequest',
      text: `UPDATE "oauth2_login_requests" SET "verifier_hash" = $2, "subject" = $3, "remember" = ("skip" OR $4),
      "remember_for" = $5, "acr" = $6, "amr" = $7, "context" = $8, "force_subject_identifier" = $9,
      "authenticated_at" = CASE WHEN "skip" THEN "authenticated_at" ELSE $10 END, "handled_at" = $10, "error" = NULL
      WHERE "challenge_hash" = $1 AND "requested_at" >= $11 AND "was_used" = false AND "handled_at" IS NULL
        AND ("skip" = false OR "subject" = $3)
      RETURNING "request_url"`,
    },
    redeem: redeemStatement('consent_redeemLoginRequest', 'oauth2_login_requests', '"handled_at" IS NOT NULL', requests.columns),
  } satisfies Record<string, NamedStatement>;
}

/** The `oauth2_login_requests` table. */
@Injectable()
export class LoginRequestsRepository {
  private readonly requests: EntityRows<LoginRequestEntity>;
  private readonly statements: ReturnType<typeof statements>;

  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(LoginRequestEntity) private readonly rows: Repository<LoginRequestEntity>,
  ) {
    this.requests = entityRows(dataSource, LoginRequestEntity);
    this.statements = statements(this.requests);
  }

  async insert(request: LoginRequestEntity): Promise<void> {
    try {
      await runNamed(this.dataSource, this.statements.insert, this.requests.values(request));
    } catch (error) {
      if (isForeignKeyViolation(error)) throw ConsentError.invalidRequest('The OAuth 2.0 client of this request no longer exists.');
      throw error;
    }
  }

  async findByChallengeHash(challengeHash: string): Promise<LoginRequestEntity | null> {
    return runNamedFirst(this.dataSource, this.statements.findByChallengeHash, [challengeHash], this.requests.toEntity);
  }

  /** Records the decision unless one was recorded already (a login request is answered once). */
  async handle(id: string, decision: LoginDecision): Promise<boolean> {
    const result = await runNamed(this.dataSource, this.statements.handle, [
      id,
      ...answerValues(decision),
      decision.authenticatedAt,
      decision.handledAt,
      jsonb(decision.error),
    ]);
    return result.rowCount === 1;
  }

  /**
   * Accepts the request with this challenge in one round trip when it is live (requested at
   * `requestedSince` or later), unanswered, and, if it was a skip, accepted for its own subject.
   * Returns its request URL, or null when any of that fails (the caller reads the request to tell why).
   */
  async accept(challengeHash: string, requestedSince: Date, acceptance: LoginAcceptance): Promise<string | null> {
    const result = await runNamed<{ request_url: string }>(this.dataSource, this.statements.accept, [
      challengeHash,
      ...answerValues(acceptance),
      acceptance.handledAt,
      requestedSince,
    ]);
    return result.rows[0]?.request_url ?? null;
  }

  /**
   * Redeems a verifier: marks its request used and returns it, or null when no answered, unused
   * request has it. The UPDATE decides, so of two browsers racing with one verifier only one wins.
   */
  redeem(verifierHash: string): Promise<LoginRequestEntity | null> {
    return runNamedFirst(this.dataSource, this.statements.redeem, [verifierHash], this.requests.toEntity);
  }

  /** Login requests of flows that can no longer complete; what a consent needs was copied to it. */
  async deleteRequestedBefore(cutoff: Date): Promise<number> {
    const result = await this.rows.createQueryBuilder().delete().where('requested_at < :cutoff', { cutoff }).execute();
    return result.affected ?? 0;
  }
}

function answerValues(answer: LoginAnswer): unknown[] {
  return [
    answer.verifierHash,
    answer.subject,
    answer.remember,
    answer.rememberFor,
    answer.acr,
    jsonb(answer.amr),
    jsonb(answer.context),
    answer.forceSubjectIdentifier,
  ];
}
