import { Injectable } from '@nestjs/common';
import type { SelfServiceConfig, UrlsConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { CsrfProtection } from '../csrf/csrf-protection.js';
import { redirect, type FlowOutcome } from '../flows/flow-outcome.js';
import { FlowsService } from '../flows/flows.service.js';
import { markBrowserFlow, type SelfServiceRequest } from '../flows/self-service-request.js';
import { SelfServiceError } from '../self-service.errors.js';
import { SessionsService } from '../sessions/sessions.service.js';

/** `GET /self-service/logout/browser`: where the browser goes to end its session (Kratos v0.7+). */
export interface LogoutUrlResponse {
  readonly logout_url: string;
  readonly logout_token: string;
}

/** Longer `token` values are no logout token of ours. */
const MAX_LOGOUT_TOKEN_LENGTH = 256;

/**
 * Logout for API clients (revoke by token) and browsers (revoke the cookie's session, clear cookies,
 * redirect). A browser logout by a plain GET can be triggered by any site the user visits (a link, an
 * image); the logout-token form (`GET /self-service/logout/browser` for the URL, then
 * `GET /self-service/logout?token=`) needs a token only the session's own pages can read, and
 * SELFSERVICE_LOGOUT_REQUIRE_TOKEN makes `GET /self-service/browser/flows/logout` need it too.
 */
@Injectable()
export class LogoutService {
  constructor(
    @InjectConfig('urls') private readonly urls: UrlsConfig,
    @InjectConfig('selfService') private readonly selfService: SelfServiceConfig,
    private readonly sessions: SessionsService,
    private readonly csrf: CsrfProtection,
    private readonly flows: FlowsService,
  ) {}

  /** Revokes the session of a token: 403 `invalid_session_token` when it is unknown, expired or already revoked. */
  async revokeToken(token: string): Promise<void> {
    if (!(await this.sessions.revoke(token))) throw SelfServiceError.invalidSessionToken();
  }

  /** `GET /self-service/logout/browser`: the logout URL and token of the request's session; 401 `session_inactive` without one. */
  async logoutUrl(request: SelfServiceRequest): Promise<LogoutUrlResponse> {
    const { session } = await this.sessions.require(request);
    const token = this.sessions.logoutTokenOf(session);
    return {
      logout_url: `${this.urls.issuer}/self-service/logout?${new URLSearchParams({ token }).toString()}`,
      logout_token: token,
    };
  }

  /**
   * `GET /self-service/logout?token=`: ends the request's session when `token` is that session's
   * logout token (403 `security_csrf_violation` otherwise, nothing ended), then as `browserLogout`.
   * A missing token is 400; without a session there is nothing to end and the browser is only sent on.
   */
  async tokenLogout(request: SelfServiceRequest): Promise<FlowOutcome> {
    markBrowserFlow(request);
    const token = request.query['token'];
    if (typeof token !== 'string' || token === '' || token.length > MAX_LOGOUT_TOKEN_LENGTH) {
      throw SelfServiceError.invalidRequest('Please include the logout token in the URL query (token).', { parameter: 'token' });
    }
    return this.endSession(request, token);
  }

  /**
   * `GET /self-service/browser/flows/logout`: revokes the session of the request (cookie, or token
   * header), drops the session and CSRF cookies, and sends the browser to `return_to` when it is
   * allowed, else to SELFSERVICE_DEFAULT_BROWSER_RETURN_URL. Without a session it only redirects. With
   * SELFSERVICE_LOGOUT_REQUIRE_TOKEN it needs the session's logout token, as `tokenLogout`.
   */
  async browserLogout(request: SelfServiceRequest): Promise<FlowOutcome> {
    markBrowserFlow(request);
    if (!this.selfService.logoutRequiresToken) return this.endSession(request, undefined);
    const token = request.query['token'];
    return this.endSession(request, typeof token === 'string' && token.length <= MAX_LOGOUT_TOKEN_LENGTH ? token : '');
  }

  /** Ends the request's session, checking `logoutToken` unless undefined, clears the cookies and redirects. */
  private async endSession(request: SelfServiceRequest, logoutToken: string | undefined): Promise<FlowOutcome> {
    const active = await this.sessions.fromRequest(request);
    if (active !== undefined) {
      if (logoutToken !== undefined && !this.sessions.isLogoutTokenOf(active.session, logoutToken)) throw SelfServiceError.csrf();
      await this.sessions.revoke(active.token);
    }
    this.sessions.clearCookie(request);
    this.csrf.clear(request);
    const returnTo = request.query['return_to'];
    const allowed = typeof returnTo === 'string' ? this.flows.allowedReturnTo(returnTo) : undefined;
    return redirect(allowed ?? this.selfService.defaultBrowserReturnUrl);
  }
}
