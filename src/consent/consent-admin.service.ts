import { Injectable } from '@nestjs/common';
import { ClientsService, type Client } from '../clients/index.js';
import type { Page } from '../common/pagination/page.js';
import type { OAuth2Config, UrlsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { ChallengeSealer } from './challenge-sealer.js';
import { CONSENT_CSRF_COOKIE } from './consent-cookies.js';
import { ConsentError } from './consent.errors.js';
import { ConsentRequestsRepository } from './consent-requests.repository.js';
import type { AcceptConsentRequestDto } from './dto/accept-consent-request.dto.js';
import type { AcceptLoginRequestDto } from './dto/accept-login-request.dto.js';
import type { RejectRequestDto } from './dto/reject-request.dto.js';
import type { ConsentRequestEntity } from './entities/consent-request.entity.js';
import type { LoginRequestEntity } from './entities/login-request.entity.js';
import type { LogoutRequestEntity } from './entities/logout-request.entity.js';
import { flowExpired, withQueryParameter } from './flow-decisions.js';
import { digestOf, matchesDigest, newFlowSecret } from './flow-secrets.js';
import { LoginRequestsRepository } from './login-requests.repository.js';
import { LoginSessionsRepository } from './login-sessions.repository.js';
import { LogoutRequestsRepository } from './logout-requests.repository.js';
import { toStoredRejection } from './rejection.js';

export interface LoginRequestView {
  readonly request: LoginRequestEntity;
  readonly client: Client;
  readonly challenge: string;
}

export interface ConsentRequestView {
  readonly request: ConsentRequestEntity;
  readonly client: Client;
  readonly challenge: string;
  readonly loginChallenge: string;
}

/**
 * The admin side of the hand-off (Hydra's consent handler): the login, consent and logout apps read
 * a request by its challenge and answer it; the answer carries the verifier the browser brings back.
 * A challenge that is unknown, expired (past TTL_LOGIN_CONSENT_REQUEST, as after the janitor) or of a
 * rejected logout is 404; one whose verifier was redeemed is 409.
 */
@Injectable()
export class ConsentAdminService {
  private readonly ttlSeconds: number;
  private readonly logoutEndpoint: string;

  constructor(
    @InjectConfig('oauth2') oauth2: OAuth2Config,
    @InjectConfig('urls') urls: UrlsConfig,
    private readonly loginRequests: LoginRequestsRepository,
    private readonly consentRequests: ConsentRequestsRepository,
    private readonly logoutRequests: LogoutRequestsRepository,
    private readonly sessions: LoginSessionsRepository,
    private readonly clients: ClientsService,
    private readonly sealer: ChallengeSealer,
  ) {
    this.ttlSeconds = oauth2.ttl.loginConsentRequest;
    this.logoutEndpoint = `${urls.issuer}/oauth2/sessions/logout`;
  }

  async getLoginRequest(challenge: string): Promise<LoginRequestView> {
    const request = await this.liveLoginRequest(challenge);
    if (request.wasUsed) throw ConsentError.conflict('login');
    return { request, client: await this.clients.get(request.clientId), challenge };
  }

  /**
   * Records that the subject authenticated. A skipped request must keep its subject, is remembered
   * again and keeps the session's authentication time. Answered once: a second accept (or reject) is
   * 409. One UPDATE decides and answers; only when it matches nothing is the request read, to tell why.
   */
  async acceptLoginRequest(challenge: string, body: AcceptLoginRequestDto): Promise<string> {
    const verifier = newFlowSecret();
    const now = new Date();
    const requestUrl = await this.loginRequests.accept(digestOf(challenge), this.liveSince(now), {
      verifierHash: digestOf(verifier),
      subject: body.subject,
      remember: body.remember ?? false,
      rememberFor: body.remember_for ?? 0,
      acr: body.acr ?? '',
      amr: body.amr ?? [],
      context: body.context ?? {},
      forceSubjectIdentifier: body.force_subject_identifier ?? '',
      handledAt: now,
    });
    if (requestUrl === null) throw await this.loginAcceptRefusal(challenge, body.subject);
    return withQueryParameter(requestUrl, 'login_verifier', verifier);
  }

  async rejectLoginRequest(challenge: string, body: RejectRequestDto): Promise<string> {
    const request = await this.unansweredLoginRequest(challenge);
    const verifier = newFlowSecret();
    const recorded = await this.loginRequests.handle(request.id, {
      verifierHash: digestOf(verifier),
      subject: request.subject,
      remember: false,
      rememberFor: 0,
      acr: '',
      amr: [],
      context: {},
      forceSubjectIdentifier: '',
      authenticatedAt: request.authenticatedAt,
      handledAt: new Date(),
      error: toStoredRejection(body, 'login'),
    });
    if (!recorded) throw ConsentError.conflict('login');
    return withQueryParameter(request.requestUrl, 'login_verifier', verifier);
  }

  async getConsentRequest(challenge: string): Promise<ConsentRequestView> {
    const request = await this.unusedConsentRequest(challenge);
    return this.consentView(request, challenge);
  }

  /**
   * 403 `request_forbidden` unless the browser's cookies hold the consent CSRF cookie set with this
   * request's challenge, i.e. it is the browser the consent was asked in. A consent page served on this
   * site sees that cookie, so it can refuse to let another browser (another person) answer a consent
   * it was handed the challenge of; redeeming the verifier checks the same cookie, later.
   */
  assertAskedIn(view: ConsentRequestView, cookies: Readonly<Record<string, string | undefined>>): void {
    if (!matchesDigest(cookies[CONSENT_CSRF_COOKIE], view.request.csrfHash)) throw ConsentError.csrf('consent');
  }

  /**
   * Records what was granted; until the browser redeems the verifier a new answer replaces the old one
   * (and its verifier). One UPDATE decides and answers; only when it matches nothing is the request read.
   */
  async acceptConsentRequest(challenge: string, body: AcceptConsentRequestDto): Promise<string> {
    const verifier = newFlowSecret();
    const now = new Date();
    const requestUrl = await this.consentRequests.accept(digestOf(challenge), this.liveSince(now), {
      verifierHash: digestOf(verifier),
      grantedScope: body.grant_scope ?? [],
      grantedAudience: body.grant_access_token_audience ?? [],
      remember: body.remember ?? false,
      rememberFor: body.remember_for ?? 0,
      sessionAccessToken: body.session?.access_token ?? {},
      sessionIdToken: body.session?.id_token ?? {},
      handledAt: now,
    });
    if (requestUrl === null) {
      await this.unusedConsentRequest(challenge);
      throw ConsentError.conflict('consent');
    }
    return withQueryParameter(requestUrl, 'consent_verifier', verifier);
  }

  async rejectConsentRequest(challenge: string, body: RejectRequestDto): Promise<string> {
    const request = await this.unusedConsentRequest(challenge);
    const verifier = newFlowSecret();
    const recorded = await this.consentRequests.handle(request.id, {
      verifierHash: digestOf(verifier),
      grantedScope: [],
      grantedAudience: [],
      remember: false,
      rememberFor: 0,
      sessionAccessToken: {},
      sessionIdToken: {},
      handledAt: new Date(),
      error: toStoredRejection(body, 'consent'),
    });
    if (!recorded) throw ConsentError.conflict('consent');
    return withQueryParameter(request.requestUrl, 'consent_verifier', verifier);
  }

  async getLogoutRequest(challenge: string): Promise<LogoutRequestEntity> {
    return this.unusedLogoutRequest(challenge);
  }

  /** The logout app confirmed: the browser comes back to the logout endpoint with the verifier. */
  async acceptLogoutRequest(challenge: string): Promise<string> {
    const request = await this.unusedLogoutRequest(challenge);
    const verifier = newFlowSecret();
    if (!(await this.logoutRequests.accept(request.id, digestOf(verifier)))) throw ConsentError.conflict('logout');
    return withQueryParameter(this.logoutEndpoint, 'logout_verifier', verifier);
  }

  /** The logout app declined: nothing ends; where the browser goes is the app's business (Hydra: 204). */
  async rejectLogoutRequest(challenge: string): Promise<void> {
    const request = await this.unusedLogoutRequest(challenge);
    if (!(await this.logoutRequests.reject(request.id))) throw ConsentError.conflict('logout');
  }

  /** Ends every login session of a subject: the next authorization asks the login app again. Tokens stay. */
  async revokeLoginSessions(subject: string): Promise<void> {
    await this.sessions.deleteBySubject(subject);
  }

  async listConsentSessions(subject: string, page: Page): Promise<{ items: ConsentRequestView[]; total: number }> {
    const { rows, total } = await this.consentRequests.findSessionPage(subject, page, new Date());
    const items = await Promise.all(rows.map((row) => this.consentView(row, this.sealer.open(row.challengeSealed, 'consent', row.id))));
    return { items, total };
  }

  /** Deletes a subject's consents (for one client, or all): skips stop, and the tokens they yielded are revoked. */
  async revokeConsentSessions(subject: string, clientId: string | undefined): Promise<void> {
    await this.consentRequests.deleteBySubject(subject, clientId);
  }

  /** The oldest `requested_at` of a request still live at `now` (the contrary of flowExpired). */
  private liveSince(now: Date): Date {
    return new Date(now.getTime() - this.ttlSeconds * 1000);
  }

  /**
   * Why an accept matched nothing, in the order of the checks: unknown or expired (404), answered or
   * redeemed (409), a skip accepted for another subject (400); else it lost a race to another answer (409).
   */
  private async loginAcceptRefusal(challenge: string, subject: string): Promise<ConsentError> {
    const request = await this.unansweredLoginRequest(challenge);
    if (request.skip && subject !== request.subject) {
      return ConsentError.invalidRequest('subject: does not match the subject of the remembered login session.', { field: 'subject' });
    }
    return ConsentError.conflict('login');
  }

  private async liveLoginRequest(challenge: string): Promise<LoginRequestEntity> {
    const request = await this.loginRequests.findByChallengeHash(digestOf(challenge));
    if (request === null || flowExpired(request.requestedAt, this.ttlSeconds, new Date())) throw ConsentError.notFound('login');
    return request;
  }

  private async unansweredLoginRequest(challenge: string): Promise<LoginRequestEntity> {
    const request = await this.liveLoginRequest(challenge);
    if (request.wasUsed || request.handledAt !== null) throw ConsentError.conflict('login');
    return request;
  }

  private async unusedConsentRequest(challenge: string): Promise<ConsentRequestEntity> {
    const request = await this.consentRequests.findByChallengeHash(digestOf(challenge));
    if (request === null || flowExpired(request.requestedAt, this.ttlSeconds, new Date())) throw ConsentError.notFound('consent');
    if (request.wasUsed) throw ConsentError.conflict('consent');
    return request;
  }

  private async unusedLogoutRequest(challenge: string): Promise<LogoutRequestEntity> {
    const request = await this.logoutRequests.findByChallengeHash(digestOf(challenge));
    if (request === null || request.rejected || flowExpired(request.requestedAt, this.ttlSeconds, new Date())) {
      throw ConsentError.notFound('logout');
    }
    if (request.wasUsed) throw ConsentError.conflict('logout');
    return request;
  }

  private async consentView(request: ConsentRequestEntity, challenge: string): Promise<ConsentRequestView> {
    return {
      request,
      client: await this.clients.get(request.clientId),
      challenge,
      loginChallenge: this.sealer.open(request.loginChallengeSealed, 'login', request.loginRequestId),
    };
  }
}
