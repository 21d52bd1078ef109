import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { OAuth2Config } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import type { AuthorizationContext, BrowserState, ConsentStep } from './authorization-context.js';
import { ChallengeSealer } from './challenge-sealer.js';
import { clearCookie, CONSENT_CSRF_COOKIE, setCookie } from './consent-cookies.js';
import { ConsentError } from './consent.errors.js';
import { ConsentRequestsRepository } from './consent-requests.repository.js';
import { ConsentRequestEntity } from './entities/consent-request.entity.js';
import { asJsonObject } from './entities/stored-oidc-context.js';
import { consentMayBeSkipped, decideConsentSkip, flowExpired, sameAuthorizationRequest } from './flow-decisions.js';
import type { ScopeRules } from './scope-strategy.js';
import { digestOf, matchesDigest, newFlowSecret } from './flow-secrets.js';
import { LoginHandOff, type RedeemedLogin, sessionEnded } from './login-hand-off.js';
import { toRejection } from './rejection.js';

/**
 * The consent half of the hand-off: after a redeemed login, a consent request for the consent app
 * (skip when a remembered consent covers the request); then the consent verifier, which yields the grant.
 */
@Injectable()
export class ConsentHandOff {
  private readonly ttlSeconds: number;
  private readonly consentUrl: string;
  private readonly scopeRules: ScopeRules;

  constructor(
    @InjectConfig('oauth2') oauth2: OAuth2Config,
    private readonly consents: ConsentRequestsRepository,
    private readonly login: LoginHandOff,
    private readonly sealer: ChallengeSealer,
  ) {
    this.ttlSeconds = oauth2.ttl.loginConsentRequest;
    this.consentUrl = oauth2.urls.consent;
    this.scopeRules = oauth2;
  }

  /**
   * The login is done: a consent request, written with the login's session in one statement, and the
   * browser goes to the consent app. When the consent cannot be asked for (`prompt=none` without a
   * remembered consent), the login's session is written alone before the refusal.
   */
  async request(context: AuthorizationContext, redeemed: RedeemedLogin): Promise<ConsentStep> {
    const { request: login, cookies } = redeemed;
    const now = new Date();
    const skippable = consentMayBeSkipped(context.client, context.redirectUri);
    const remembered =
      skippable && !context.prompt.has('consent') ? await this.consents.findRemembered(login.subject, context.client.id, now) : [];
    let skip: boolean;
    try {
      skip = decideConsentSkip(context, skippable, remembered, this.scopeRules);
    } catch (refusal) {
      await this.login.writeSession(redeemed.session);
      throw refusal;
    }

    const id = randomUUID();
    const challenge = newFlowSecret();
    const csrf = newFlowSecret();
    const inserted = await this.consents.insertAfterLogin(
      Object.assign(new ConsentRequestEntity(), {
        id,
        challengeHash: digestOf(challenge),
        challengeSealed: this.sealer.seal(challenge, 'consent', id),
        verifierHash: null,
        csrfHash: digestOf(csrf),
        clientId: context.client.id,
        subject: login.subject,
        forceSubjectIdentifier: login.forceSubjectIdentifier,
        requestUrl: context.requestUrl,
        requestedScope: [...context.requestedScope],
        requestedAudience: [...context.requestedAudience],
        oidcContext: context.oidcContext,
        skip,
        acr: login.acr,
        amr: login.amr,
        context: login.context,
        loginRequestId: login.id,
        loginChallengeSealed: login.challengeSealed,
        loginSessionId: login.loginSessionId,
        requestedAt: login.requestedAt,
        authenticatedAt: login.authenticatedAt ?? now,
        handledAt: null,
        grantedScope: [],
        grantedAudience: [],
        remember: false,
        rememberFor: 0,
        sessionAccessToken: {},
        sessionIdToken: {},
        error: null,
        wasUsed: false,
      } satisfies ConsentRequestEntity),
      redeemed.session,
    );
    if (!inserted) throw sessionEnded();
    const location = new URL(this.consentUrl);
    location.searchParams.set('consent_challenge', challenge);
    return {
      kind: 'redirect',
      location: location.toString(),
      cookies: [...cookies, setCookie(CONSENT_CSRF_COOKIE, csrf, this.ttlSeconds)],
    };
  }

  /** The browser is back with a consent verifier: redeem it (once) and hand over what was granted. */
  async verify(context: AuthorizationContext, browser: BrowserState, verifier: string): Promise<ConsentStep> {
    const consent = await this.consents.redeem(digestOf(verifier));
    if (consent === null) throw ConsentError.accessDenied('consent');
    if (!matchesDigest(browser.cookies[CONSENT_CSRF_COOKIE], consent.csrfHash)) throw ConsentError.csrf('consent');
    if (flowExpired(consent.requestedAt, this.ttlSeconds, new Date())) throw ConsentError.expired('consent');
    if (consent.clientId !== context.client.id || !sameAuthorizationRequest(consent.requestUrl, context.requestUrl)) {
      throw ConsentError.invalidRequest('The consent verifier belongs to another authorization request.');
    }
    if (consent.error !== null) throw ConsentError.rejected(toRejection(consent.error));
    return {
      kind: 'granted',
      grant: {
        id: consent.id,
        subject: consent.subject,
        forcedSubjectIdentifier: consent.forceSubjectIdentifier,
        grantedScope: consent.grantedScope,
        grantedAudience: consent.grantedAudience,
        accessTokenClaims: asJsonObject(consent.sessionAccessToken),
        idTokenClaims: asJsonObject(consent.sessionIdToken),
        authTime: consent.authenticatedAt,
        requestedAt: consent.requestedAt,
        acr: acrOf(consent),
        amr: consent.amr,
        loginSessionId: consent.loginSessionId ?? '',
      },
      cookies: [clearCookie(CONSENT_CSRF_COOKIE)],
    };
  }
}

/**
 * The `acr` of the tokens: what the login app set; when it set none but the client asked for
 * `acr_values`, "0" (OIDC Core §2: did not meet ISO/IEC 29115 level 1), as fosite does, so the client
 * learns that its request was not met rather than nothing.
 */
function acrOf(consent: ConsentRequestEntity): string {
  if (consent.acr !== '') return consent.acr;
  return (consent.oidcContext.acr_values?.length ?? 0) > 0 ? '0' : '';
}
