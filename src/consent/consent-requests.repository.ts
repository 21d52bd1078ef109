import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type Repository, type SelectQueryBuilder } from 'typeorm';
import type { Page } from '../common/pagination/page.js';
import { entityRows, type EntityRows } from '../database/entity-rows.js';
import { jsonb, type NamedStatement, runNamed, runNamedFirst } from '../database/named-statements.js';
import { ConsentError } from './consent.errors.js';
import { isForeignKeyViolation } from '../database/sql-state.js';
import { ConsentRequestEntity } from './entities/consent-request.entity.js';
import type { RememberedConsent } from './flow-decisions.js';
import { LoginSessionEntity } from './entities/login-session.entity.js';
import { extendValues, type LoginSessionWrite, SESSION_UPSERT } from './login-sessions.repository.js';
import { redeemStatement } from './verifier-redemption.js';

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

/** What accept and reject both write of the answer ($2-$8 of `handle` and `accept`). */
type ConsentAnswer = Omit<ConsentDecision, 'handledAt' | 'error'>;

/** What accept writes on a consent request (see ConsentRequestsRepository.accept). */
export type ConsentAcceptance = ConsentAnswer & { readonly handledAt: Date };

/**
 * How many remembered consents of one subject and client are weighed for a skip, newest first. Each
 * one comes from a real consent screen, so more than this means the older ones no longer matter.
 */
const REMEMBERED_CANDIDATES = 100;

/**
 * The statements of every authorization (see runNamed); the admin lists and the janitor's deletes
 * stay on TypeORM.
 */
function statements(requests: EntityRows<ConsentRequestEntity>, sessions: EntityRows<LoginSessionEntity>) {
  /** The parameters after a consent request's ($1 to $n, in `requests.columns` order). */
  const after = (offset: number) => `$${requests.columnCount + offset}`;
  return {
    /**
     * A consent request ($1-$n) and the session its login created or overwrote (the parameters after
     * it, see LoginSessionsRepository). The consent's foreign key to the session is checked at the
     * end of the statement, so it sees the session the CTE wrote.
     */
    insertWithSession: {
      name: 'consent_insertConsentRequestWithSession',
      text: `WITH "session" AS (
        INSERT INTO "oauth2_authentication_sessions" (${sessions.columns}) VALUES (${sessions.placeholders(requests.columnCount + 1)}) ${SESSION_UPSERT}
      )
      INSERT INTO "oauth2_consent_requests" (${requests.columns}) VALUES (${requests.placeholders()})`,
    },
    /**
     * A consent request ($1-$n) after a skipped login, which moves the window of the remembered
     * session it answered (after it: id, now, cookie digest, new end): nothing is inserted when
     * that session is no longer remembered under this cookie.
     */
    insertExtendingSession: {
      name: 'consent_insertConsentRequestExtendingSession',
      text: `WITH "session" AS (
        UPDATE "oauth2_authentication_sessions" SET "expires_at" = ${after(4)}
        WHERE "id" = ${after(1)} AND "token_hash" = ${after(3)} AND "remember" = true AND ("expires_at" IS NULL OR "expires_at" > ${after(2)})
        RETURNING 1
      )
      INSERT INTO "oauth2_consent_requests" (${requests.columns})
      SELECT ${requests.placeholders()} WHERE EXISTS (SELECT 1 FROM "session")`,
    },
    findByChallengeHash: {
      name: 'consent_findConsentRequest',
      text: `SELECT ${requests.columns} FROM "oauth2_consent_requests" WHERE "challenge_hash" = $1`,
    },
    handle: {
      name: 'consent_handleConsentRequest',
      text: `UPDATE "oauth2_consent_requests" SET "verifier_hash" = $2, "granted_scope" = $3, "granted_audience" = $4,
      "remember" = $5, "remember_for" = $6, "session_access_token" = $7, "session_id_token" = $8, "handled_at" = $9, "error" = $10
      WHERE "id" = $1 AND "was_used" = false`,
    },
    /** Accept, decided by the UPDATE's conditions: a live (`requested_at` not before $10), unredeemed request. */
    accept: {
      name: 'consent_acceptConsentRequest',
      text: `UPDATE "oauth2_consent_requests" SET "verifier_hash" = $2, "granted_scope" = $3, "granted_audience" = $4,
      "remember" = $5, "remember_for" = $6, "session_access_token" = $7, "session_id_token" = $8, "handled_at" = $9, "error" = NULL
      WHERE "challenge_hash" = $1 AND "requested_at" >= $10 AND "was_used" = false
      RETURNING "request_url"`,
    },
    redeem: redeemStatement('consent_redeemConsentRequest', 'oauth2_consent_requests', '"handled_at" IS NOT NULL', requests.columns),
    /** The consent sessions of `sessions()` below, one client's; only what a skip weighs (decideConsentSkip). */
    findRemembered: {
      name: 'consent_findRememberedConsents',
      text: `SELECT "granted_scope", "granted_audience" FROM "oauth2_consent_requests"
      WHERE "subject" = $1 AND "client_id" = $2
        AND "was_used" = true AND "error" IS NULL AND "remember" = true AND "skip" = false
        AND ("remember_for" = 0 OR "requested_at" + "remember_for" * interval '1 second' > $3)
      ORDER BY "requested_at" DESC LIMIT ${REMEMBERED_CANDIDATES}`,
    },
    forcedSubjectIdentifier: {
      name: 'consent_forcedSubjectIdentifier',
      text: `SELECT "force_subject_identifier" FROM "oauth2_consent_requests"
      WHERE "subject" = $1 AND "client_id" = $2 AND "was_used" = true AND "error" IS NULL AND "force_subject_identifier" <> ''
      ORDER BY "requested_at" DESC LIMIT 1`,
    },
  } satisfies Record<string, NamedStatement>;
}

/** The `oauth2_consent_requests` table: consent requests, and the consent sessions they become. */
@Injectable()
export class ConsentRequestsRepository {
  private readonly requests: EntityRows<ConsentRequestEntity>;
  private readonly loginSessions: EntityRows<LoginSessionEntity>;
  private readonly statements: ReturnType<typeof statements>;

  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(ConsentRequestEntity) private readonly rows: Repository<ConsentRequestEntity>,
  ) {
    this.requests = entityRows(dataSource, ConsentRequestEntity);
    this.loginSessions = entityRows(dataSource, LoginSessionEntity);
    this.statements = statements(this.requests, this.loginSessions);
  }

  /**
   * The consent request that follows a redeemed login, and that login's session write, in one
   * statement (one round trip, one commit). False, and nothing written, when the write was an extend
   * and the remembered session is gone.
   */
  async insertAfterLogin(request: ConsentRequestEntity, session: LoginSessionWrite): Promise<boolean> {
    try {
      const result =
        session.kind === 'upsert'
          ? await runNamed(this.dataSource, this.statements.insertWithSession, [
              ...this.requests.values(request),
              ...this.loginSessions.values(session.session),
            ])
          : await runNamed(this.dataSource, this.statements.insertExtendingSession, [
              ...this.requests.values(request),
              ...extendValues(session),
            ]);
      return result.rowCount === 1;
    } catch (error) {
      if (isForeignKeyViolation(error)) throw ConsentError.loginRequired('The login session or the client ended during the flow.');
      throw error;
    }
  }

  async findByChallengeHash(challengeHash: string): Promise<ConsentRequestEntity | null> {
    return runNamedFirst(this.dataSource, this.statements.findByChallengeHash, [challengeHash], this.requests.toEntity);
  }

  /** Records (or replaces) the decision until the browser redeems the verifier. */
  async handle(id: string, decision: ConsentDecision): Promise<boolean> {
    const result = await runNamed(this.dataSource, this.statements.handle, [
      id,
      ...answerValues(decision),
      decision.handledAt,
      jsonb(decision.error),
    ]);
    return result.rowCount === 1;
  }

  /**
   * Accepts (or accepts again, replacing the earlier answer and its verifier) the request with this
   * challenge in one round trip when it is live (requested at `requestedSince` or later) and not
   * redeemed. Returns its request URL, or null when not (the caller reads the request to tell why).
   */
  async accept(challengeHash: string, requestedSince: Date, acceptance: ConsentAcceptance): Promise<string | null> {
    const result = await runNamed<{ request_url: string }>(this.dataSource, this.statements.accept, [
      challengeHash,
      ...answerValues(acceptance),
      acceptance.handledAt,
      requestedSince,
    ]);
    return result.rows[0]?.request_url ?? null;
  }

  /** Redeems a verifier once (see LoginRequestsRepository.redeem). */
  redeem(verifierHash: string): Promise<ConsentRequestEntity | null> {
    return runNamedFirst(this.dataSource, this.statements.redeem, [verifierHash], this.requests.toEntity);
  }

  /** What the remembered, unexpired consents of a subject for a client granted, newest first. */
  async findRemembered(subject: string, clientId: string, now: Date): Promise<RememberedConsent[]> {
    const result = await runNamed<{ granted_scope: string[]; granted_audience: string[] }>(
      this.dataSource,
      this.statements.findRemembered,
      [subject, clientId, now],
    );
    return result.rows.map((row) => ({ grantedScope: row.granted_scope, grantedAudience: row.granted_audience }));
  }

  /** The subject identifier last forced for this subject at this client, '' when none. */
  async forcedSubjectIdentifier(subject: string, clientId: string): Promise<string> {
    const [row] = (
      await runNamed<{ force_subject_identifier: string }>(this.dataSource, this.statements.forcedSubjectIdentifier, [subject, clientId])
    ).rows;
    return row?.force_subject_identifier ?? '';
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

function answerValues(answer: ConsentAnswer): unknown[] {
  return [
    answer.verifierHash,
    jsonb(answer.grantedScope),
    jsonb(answer.grantedAudience),
    answer.remember,
    answer.rememberFor,
    jsonb(answer.sessionAccessToken),
    jsonb(answer.sessionIdToken),
  ];
}
