import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ClientsService, type Client } from '../clients/index.js';
import { AppError } from '../common/errors/app-error.js';
import { ErrorKind } from '../common/errors/error-kind.js';
import type { OAuth2Config } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import type { CookieInstruction } from './authorization-context.js';
import { clearCookie, LOGIN_SESSION_COOKIE } from './consent-cookies.js';
import { ConsentError } from './consent.errors.js';
import { LogoutRequestEntity } from './entities/logout-request.entity.js';
import { ConsentRequestsRepository } from './consent-requests.repository.js';
import { flowExpired } from './flow-decisions.js';
import { digestOf, newFlowSecret } from './flow-secrets.js';
import { LoginSessionsRepository } from './login-sessions.repository.js';
import { LogoutRequestsRepository } from './logout-requests.repository.js';

/** A logout the logout endpoint has checked (id_token_hint, post_logout_redirect_uri, state). */
export interface LogoutInitiation {
  /** The logout URL as the browser called it (shown to the logout app as `request_url`). */
  readonly requestUrl: string;
  /** The browser's `oauth2_authentication_session` cookie: the only session a logout can end. */
  readonly sessionCookie: string | undefined;
  /** The `sid` of a verified id_token_hint: the browser's session must be that one. */
  readonly hintedSessionId: string | undefined;
  /** A relying party asked (id_token_hint or client_id), rather than the browser on its own. */
  readonly rpInitiated: boolean;
  /** Where the browser ends up: the checked post_logout_redirect_uri (with state), or the default. */
  readonly postLogoutRedirectUri: string;
  /** The relying party's `logout_hint`, '' when none; and its `ui_locales`. Both for the logout app. */
  readonly logoutHint: string;
  readonly uiLocales: readonly string[];
}

/** Where to send the browser, and the cookies to set on the way. */
export interface LogoutStep {
  readonly location: string;
  readonly cookies: readonly CookieInstruction[];
}

/** A client that was granted tokens within an ended login session. */
export interface LogoutParticipant {
  readonly client: Client;
  /** `force_subject_identifier` of its newest grant in the session, '' when none (see SubjectIdentifiers). */
  readonly forcedSubjectIdentifier: string;
}

/** A login session a logout ended: what front- and back-channel logout tell the clients. */
export interface EndedLoginSession {
  /** The subject as the login app accepted it (not yet as each client sees it). */
  readonly subject: string;
  /** The login session id: the `sid` of the ID tokens issued in it. */
  readonly sid: string;
  /** Every client granted tokens in the session, whatever logout URIs it registered. */
  readonly participants: readonly LogoutParticipant[];
}

/** The end of a logout: the step, and the session it ended (undefined when it ended none). */
export interface LogoutCompletion extends LogoutStep {
  readonly ended: EndedLoginSession | undefined;
}

/**
 * Logout (Hydra's issueLogoutVerifier / completeLogout): a logout request for the logout app when
 * there is a remembered session to end, then the verifier, which ends it.
 */
@Injectable()
export class LogoutHandOff {
  private readonly ttlSeconds: number;
  private readonly logoutUrl: string;

  constructor(
    @InjectConfig('oauth2') oauth2: OAuth2Config,
    private readonly requests: LogoutRequestsRepository,
    private readonly sessions: LoginSessionsRepository,
    private readonly consents: ConsentRequestsRepository,
    private readonly clients: ClientsService,
  ) {
    this.ttlSeconds = oauth2.ttl.loginConsentRequest;
    this.logoutUrl = oauth2.urls.logout;
  }

  /**
   * Only the requesting browser's own session (its cookie) can be ended: an ID token is no secret (it
   * passes through front channels, logs and proxies), so a hint naming another session ends nothing
   * of it. No session of this browser to end (never was, ended already, or not the hinted one):
   * straight to the post-logout redirect.
   */
  async start(initiation: LogoutInitiation): Promise<LogoutStep> {
    const now = new Date();
    const cookie = initiation.sessionCookie ?? '';
    const session = cookie === '' ? null : await this.sessions.findRememberedByToken(digestOf(cookie), now);
    if (session === null || (initiation.hintedSessionId !== undefined && session.id !== initiation.hintedSessionId)) {
      return { location: initiation.postLogoutRedirectUri, cookies: [] };
    }

    const challenge = newFlowSecret();
    await this.requests.insert(
      Object.assign(new LogoutRequestEntity(), {
        id: randomUUID(),
        challengeHash: digestOf(challenge),
        verifierHash: null,
        subject: session.subject,
        sessionId: session.id,
        requestUrl: initiation.requestUrl,
        rpInitiated: initiation.rpInitiated,
        postLogoutRedirectUri: initiation.postLogoutRedirectUri,
        logoutHint: initiation.logoutHint,
        uiLocales: [...initiation.uiLocales],
        accepted: false,
        rejected: false,
        wasUsed: false,
        requestedAt: now,
      } satisfies LogoutRequestEntity),
    );
    const location = new URL(this.logoutUrl);
    location.searchParams.set('logout_challenge', challenge);
    return { location: location.toString(), cookies: [] };
  }

  /**
   * The logout app accepted and the browser is back with the verifier: end the login session and
   * clear its cookie, and name the clients granted tokens in it (read first: ending the session
   * clears `login_session_id` on its consents). A browser that meanwhile lost the session, or holds
   * another one, ends nothing (the verifier alone does not vouch for the browser), and so notifies no
   * client.
   */
  async complete(verifier: string, sessionCookie: string | undefined): Promise<LogoutCompletion> {
    const now = new Date();
    const request = await this.requests.redeem(digestOf(verifier));
    if (request === null) throw ConsentError.accessDenied('logout');
    if (flowExpired(request.requestedAt, this.ttlSeconds, now)) throw ConsentError.expired('logout');
    const cookie = sessionCookie ?? '';
    const current = cookie === '' ? null : await this.sessions.findRememberedByToken(digestOf(cookie), now);
    if (current === null || current.id !== request.sessionId) {
      return { location: request.postLogoutRedirectUri, cookies: [], ended: undefined };
    }
    const participants = await this.participants(request.sessionId, request.subject);
    await this.sessions.deleteById(request.sessionId);
    return {
      location: request.postLogoutRedirectUri,
      cookies: [clearCookie(LOGIN_SESSION_COOKIE)],
      ended: { subject: request.subject, sid: request.sessionId, participants },
    };
  }

  private async participants(sid: string, subject: string): Promise<LogoutParticipant[]> {
    const rows = await this.consents.findClientsOfLoginSession(sid, subject);
    const found = await Promise.all(
      rows.map(async ({ clientId, forcedSubjectIdentifier }) => {
        try {
          return { client: await this.clients.get(clientId), forcedSubjectIdentifier };
        } catch (error) {
          // Deleted since (its consents go with it, so this is a race): nobody left to notify.
          if (error instanceof AppError && error.kind === ErrorKind.NotFound) return undefined;
          throw error;
        }
      }),
    );
    return found.filter((participant) => participant !== undefined);
  }
}
