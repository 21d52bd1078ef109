import { Injectable } from '@nestjs/common';
import type { OAuth2Config } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import type { AuthorizationContext, BrowserState, ConsentStep } from './authorization-context.js';
import { ConsentHandOff } from './consent-hand-off.js';
import { ConsentError } from './consent.errors.js';
import { ConsentRequestsRepository } from './consent-requests.repository.js';
import { LoginHandOff } from './login-hand-off.js';
import { LoginRequestsRepository } from './login-requests.repository.js';
import { LoginSessionsRepository } from './login-sessions.repository.js';
import { LogoutHandOff, type LogoutCompletion, type LogoutInitiation, type LogoutStep } from './logout-hand-off.js';
import { LogoutRequestsRepository } from './logout-requests.repository.js';

/**
 * The consent context's API for the oauth context: the login/consent hand-off of the authorize
 * endpoint (Hydra's DefaultStrategy), the logout hand-off of the logout endpoint, and the cleanup the
 * janitor runs. No HTTP here: the callers read the browser's cookies and verifiers and apply the
 * cookie instructions and redirects this service answers.
 */
@Injectable()
export class ConsentFlowService {
  private readonly ttlSeconds: number;

  constructor(
    @InjectConfig('oauth2') oauth2: OAuth2Config,
    private readonly login: LoginHandOff,
    private readonly consent: ConsentHandOff,
    private readonly logout: LogoutHandOff,
    private readonly loginRequests: LoginRequestsRepository,
    private readonly consentRequests: ConsentRequestsRepository,
    private readonly logoutRequests: LogoutRequestsRepository,
    private readonly sessions: LoginSessionsRepository,
  ) {
    this.ttlSeconds = oauth2.ttl.loginConsentRequest;
  }

  /**
   * One step of an authorization request's hand-off, decided by the verifier the browser brought:
   * none → a login request (redirect to the login app); `login_verifier` → redeem it, then a consent
   * request (redirect to the consent app); `consent_verifier` → redeem it: `granted`.
   * @throws ConsentError for the authorize endpoint to deliver to the client (see ConsentError).
   */
  async advance(context: AuthorizationContext, browser: BrowserState): Promise<ConsentStep> {
    const loginVerifier = present(browser.loginVerifier);
    const consentVerifier = present(browser.consentVerifier);
    if (loginVerifier !== undefined && consentVerifier !== undefined) {
      throw ConsentError.invalidRequest('login_verifier and consent_verifier cannot be used together.');
    }
    if (consentVerifier !== undefined) return this.consent.verify(context, browser, consentVerifier);
    if (loginVerifier === undefined) return this.login.request(context, browser);
    const redeemed = await this.login.verify(context, browser, loginVerifier);
    return this.consent.request(context, redeemed);
  }

  /** `GET /oauth2/sessions/logout` without a verifier: where the browser goes next. */
  startLogout(initiation: LogoutInitiation): Promise<LogoutStep> {
    return this.logout.start(initiation);
  }

  /**
   * `GET /oauth2/sessions/logout?logout_verifier=`: ends the login session, and tells which session
   * ended and which clients were granted tokens in it (for front- and back-channel logout).
   * @throws ConsentError (`access_denied`, `request_unauthorized`) for the error page.
   */
  completeLogout(verifier: string, sessionCookie: string | undefined): Promise<LogoutCompletion> {
    return this.logout.complete(verifier, sessionCookie);
  }

  /**
   * For the janitor: deletes login, logout and never-granted consent requests whose flow began more
   * than TTL_LOGIN_CONSENT_REQUEST before `before` (they can no longer complete), remembered login
   * sessions whose window ended before `before`, and sessions that were never remembered once their
   * flow is over. Granted consents stay: tokens reference them. Returns how many rows went.
   */
  async deleteExpired(before: Date): Promise<number> {
    const flowCutoff = new Date(before.getTime() - this.ttlSeconds * 1000);
    // One after the other, in this order: run at once, the session delete (which sets the consent
    // requests' login_session_id to NULL) and the consent request delete locked the same consent rows
    // in opposite orders, and PostgreSQL ended one with `deadlock detected`.
    let removed = await this.consentRequests.deleteUngrantedBefore(flowCutoff);
    removed += await this.sessions.deleteExpired(before, flowCutoff);
    removed += await this.loginRequests.deleteRequestedBefore(flowCutoff);
    removed += await this.logoutRequests.deleteRequestedBefore(flowCutoff);
    return removed;
  }
}

/** Hydra treats an empty verifier as none. */
function present(verifier: string | undefined): string | undefined {
  return verifier === undefined || verifier.trim() === '' ? undefined : verifier.trim();
}
