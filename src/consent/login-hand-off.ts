import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { OAuth2Config } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import type { AuthorizationContext, BrowserState, ConsentStep, CookieInstruction } from './authorization-context.js';
import { ChallengeSealer } from './challenge-sealer.js';
import { clearCookie, LOGIN_CSRF_COOKIE, LOGIN_SESSION_COOKIE, setCookie } from './consent-cookies.js';
import { ConsentError } from './consent.errors.js';
import { ConsentRequestsRepository } from './consent-requests.repository.js';
import { LoginRequestEntity } from './entities/login-request.entity.js';
import { LoginSessionEntity } from './entities/login-session.entity.js';
import { decideLoginSkip, flowExpired, sameAuthorizationRequest } from './flow-decisions.js';
import { digestOf, matchesDigest, newFlowSecret } from './flow-secrets.js';
import { LoginRequestsRepository } from './login-requests.repository.js';
import { type LoginSessionWrite, LoginSessionsRepository } from './login-sessions.repository.js';
import { toRejection } from './rejection.js';

/**
 * A login the browser just redeemed, the cookies that go with it, and the write on its login session
 * that they stand for: the consent step writes it together with its consent request.
 */
export interface RedeemedLogin {
  readonly request: LoginRequestEntity;
  readonly cookies: readonly CookieInstruction[];
  readonly session: LoginSessionWrite;
}

/**
 * The login half of the hand-off: creates login requests for the login app (skip when a remembered
 * session answers) and redeems their verifiers, creating or refreshing the login session.
 */
@Injectable()
export class LoginHandOff {
  private readonly ttlSeconds: number;
  private readonly loginUrl: string;

  constructor(
    @InjectConfig('oauth2') oauth2: OAuth2Config,
    private readonly requests: LoginRequestsRepository,
    private readonly sessions: LoginSessionsRepository,
    private readonly consents: ConsentRequestsRepository,
    private readonly sealer: ChallengeSealer,
  ) {
    this.ttlSeconds = oauth2.ttl.loginConsentRequest;
    this.loginUrl = oauth2.urls.login;
  }

  /** No verifier yet: a new login request, and the browser goes to the login app. */
  async request(context: AuthorizationContext, browser: BrowserState): Promise<ConsentStep> {
    const now = new Date();
    const cookie = browser.cookies[LOGIN_SESSION_COOKIE];
    const session = cookie === undefined || cookie === '' ? null : await this.sessions.findRememberedByToken(digestOf(cookie), now);
    const forced =
      session !== null && context.hintMatches !== undefined
        ? await this.consents.forcedSubjectIdentifier(session.subject, context.client.id)
        : '';
    const skip = decideLoginSkip(
      context,
      session === null
        ? undefined
        : { subject: session.subject, authenticatedAt: session.authenticatedAt, forcedSubjectIdentifier: forced },
      now,
    );

    const id = randomUUID();
    const challenge = newFlowSecret();
    const csrf = newFlowSecret();
    await this.requests.insert(
      Object.assign(new LoginRequestEntity(), {
        id,
        challengeHash: digestOf(challenge),
        challengeSealed: this.sealer.seal(challenge, 'login', id),
        verifierHash: null,
        csrfHash: digestOf(csrf),
        clientId: context.client.id,
        requestUrl: context.requestUrl,
        requestedScope: [...context.requestedScope],
        requestedAudience: [...context.requestedAudience],
        oidcContext: context.oidcContext,
        skip,
        subject: skip ? session!.subject : '',
        // A browser that has a session keeps its sid when it logs in again (Hydra does the same).
        loginSessionId: session?.id ?? randomUUID(),
        requestedAt: now,
        authenticatedAt: skip ? session!.authenticatedAt : null,
        handledAt: null,
        remember: false,
        rememberFor: 0,
        acr: '',
        amr: [],
        context: {},
        forceSubjectIdentifier: '',
        error: null,
        wasUsed: false,
      } satisfies LoginRequestEntity),
    );
    const location = new URL(this.loginUrl);
    location.searchParams.set('login_challenge', challenge);
    return { kind: 'redirect', location: location.toString(), cookies: [setCookie(LOGIN_CSRF_COOKIE, csrf, this.ttlSeconds)] };
  }

  /**
   * The browser is back with a login verifier: redeem it (once), check it came back to the same
   * browser and request in time, then say how to remember (or forget) the login session as the login
   * app said; the consent step writes it (see RedeemedLogin).
   */
  async verify(context: AuthorizationContext, browser: BrowserState, verifier: string): Promise<RedeemedLogin> {
    const now = new Date();
    const request = await this.requests.redeem(digestOf(verifier));
    if (request === null) throw ConsentError.accessDenied('login');
    if (!matchesDigest(browser.cookies[LOGIN_CSRF_COOKIE], request.csrfHash)) throw ConsentError.csrf('login');
    if (flowExpired(request.requestedAt, this.ttlSeconds, now)) throw ConsentError.expired('login');
    if (request.clientId !== context.client.id || !sameAuthorizationRequest(request.requestUrl, context.requestUrl)) {
      throw ConsentError.invalidRequest('The login verifier belongs to another authorization request.');
    }
    if (request.error !== null) throw ConsentError.rejected(toRejection(request.error));
    // The hint names who must end up logged in, whoever the login app accepted (Hydra checks it after
    // login too, fosite's ValidatePrompt): another subject is login_required, and no session is made.
    if (context.hintMatches !== undefined && !context.hintMatches(request.subject, request.forceSubjectIdentifier)) {
      throw ConsentError.loginRequired('The subject of the id_token_hint is not the subject that logged in.');
    }

    const cookies: CookieInstruction[] = [clearCookie(LOGIN_CSRF_COOKIE)];
    const expiresAt = request.rememberFor > 0 ? new Date(now.getTime() + request.rememberFor * 1000) : null;
    const cookieMaxAge = request.rememberFor > 0 ? request.rememberFor : undefined;
    if (request.skip) {
      // The remembered session answered; its cookie gets the window the login app asked for now.
      const cookie = browser.cookies[LOGIN_SESSION_COOKIE] ?? '';
      if (cookie === '') throw sessionEnded();
      cookies.push(setCookie(LOGIN_SESSION_COOKIE, cookie, cookieMaxAge));
      return { request, cookies, session: { kind: 'extend', id: request.loginSessionId, tokenHash: digestOf(cookie), expiresAt, now } };
    }
    const token = request.remember ? newFlowSecret() : undefined;
    cookies.push(token === undefined ? clearCookie(LOGIN_SESSION_COOKIE) : setCookie(LOGIN_SESSION_COOKIE, token, cookieMaxAge));
    const session = Object.assign(new LoginSessionEntity(), {
      id: request.loginSessionId,
      tokenHash: token === undefined ? null : digestOf(token),
      subject: request.subject,
      authenticatedAt: request.authenticatedAt ?? now,
      remember: request.remember,
      expiresAt: request.remember ? expiresAt : null,
    } satisfies LoginSessionEntity);
    return { request, cookies, session: { kind: 'upsert', session } };
  }

  /**
   * A redeemed login's session write alone, for when no consent request follows it (the consent step
   * refused): the login stands all the same.
   * @throws ConsentError `login_required` when a skip's remembered session is gone.
   */
  async writeSession(write: LoginSessionWrite): Promise<void> {
    if (!(await this.sessions.write(write))) throw sessionEnded();
  }
}

/** A skip whose remembered session ended (logout, revocation, janitor) while the login request was pending. */
export function sessionEnded(): ConsentError {
  return ConsentError.loginRequired('The login session ended while the login request was pending.');
}
