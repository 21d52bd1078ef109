import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { CsrfProtection } from '../csrf/csrf-protection.js';
import { markBrowserRequest } from '../flows/browser-requests.js';
import { FlowReplies } from '../flows/flow-replies.js';
import { FlowsService, type SelfServiceHttp } from '../flows/flows.service.js';
import { SelfServiceError } from '../self-service.errors.js';
import { sessionTokenOf } from '../sessions/session-token.js';
import { SessionsService } from '../sessions/sessions.service.js';

/** Logout for API clients (revoke by token) and browsers (revoke the cookie's session, clear cookies, redirect). */
@Injectable()
export class LogoutService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionsService,
    private readonly csrf: CsrfProtection,
    private readonly flows: FlowsService,
    private readonly replies: FlowReplies,
  ) {}

  /** Revokes the session of a token: 403 `invalid_session_token` when it is unknown, expired or already revoked. */
  async revokeToken(token: string): Promise<void> {
    if (!(await this.sessions.revoke(token))) throw SelfServiceError.invalidSessionToken();
  }

  /**
   * `GET /self-service/browser/flows/logout`: revokes the session of the request (cookie, or token
   * header), drops the session and CSRF cookies, and sends the browser to `return_to` when it is
   * allowed, else to SELFSERVICE_DEFAULT_BROWSER_RETURN_URL. Without a session it only redirects.
   */
  async browserLogout(http: SelfServiceHttp): Promise<FastifyReply> {
    markBrowserRequest(http.request);
    const token = sessionTokenOf(http.request);
    if (token !== undefined) await this.sessions.revoke(token);
    this.sessions.clearCookie(http.reply);
    this.csrf.clear(http.reply);
    const returnTo = (http.request.query as Record<string, unknown>)['return_to'];
    const target =
      typeof returnTo === 'string' && this.flows.isAllowedReturnTo(returnTo) ? returnTo : this.config.selfService.defaultBrowserReturnUrl;
    return this.replies.redirect(http.reply, target);
  }
}
