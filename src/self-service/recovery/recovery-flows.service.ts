import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AddressTokensService } from '../../identities/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { markBrowserRequest } from '../flows/browser-requests.js';
import type { FlowType } from '../flows/flow-kind.js';
import { FlowReplies } from '../flows/flow-replies.js';
import { FlowsService, type SelfServiceHttp } from '../flows/flows.service.js';
import { SelfServiceError } from '../self-service.errors.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { SettingsFlows } from '../settings/settings-flows.service.js';
import { UiMessages } from '../ui/ui-messages.js';
import { LinkFlowSteps } from './link-flow-steps.js';
import { RecoveryFlowKind } from './recovery-flow-kind.js';

/** The authentication method recorded on a session issued by a recovery link (Kratos' name). */
const RECOVERY_METHOD = 'link_recovery';

/**
 * The recovery flow with the link method (seed 001's state table; Kratos v0.6 `strategy/link`,
 * reference §1.9). Like Kratos, every route but `flows` is for people without a session: an API client
 * with one gets a 400, a browser is sent to SELFSERVICE_DEFAULT_BROWSER_RETURN_URL. The link
 * (`GET /self-service/recovery?flow=&token=`, also the form of admin recovery links) is single-use,
 * bound to its flow and expires with it; a good one issues a session (the `service_session` cookie)
 * and sends the browser to a new settings flow to set a password.
 */
@Injectable()
export class RecoveryFlows {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly steps: LinkFlowSteps,
    private readonly kind: RecoveryFlowKind,
    private readonly flows: FlowsService,
    private readonly replies: FlowReplies,
    private readonly sessions: SessionsService,
    private readonly settings: SettingsFlows,
    private readonly tokens: AddressTokensService,
  ) {}

  /** `GET /self-service/recovery/api`: 400 with a valid session. */
  async initApi(http: SelfServiceHttp): Promise<FastifyReply> {
    if ((await this.sessions.fromRequest(http.request)) !== undefined) throw SelfServiceError.alreadyLoggedIn('recovery');
    return this.steps.init(this.kind, 'api', http);
  }

  /** `GET /self-service/recovery/browser`: 302 to the recovery UI (to the default return URL with a session). */
  async initBrowser(http: SelfServiceHttp): Promise<FastifyReply> {
    markBrowserRequest(http.request);
    if ((await this.sessions.fromRequest(http.request)) !== undefined) return this.loggedIn(http, 'browser');
    return this.steps.init(this.kind, 'browser', http);
  }

  fetch(http: SelfServiceHttp): Promise<FastifyReply> {
    return this.steps.fetch(this.kind, http);
  }

  /** `POST /self-service/recovery?flow=` with `email`: see LinkFlowSteps.submit. */
  async submit(http: SelfServiceHttp): Promise<FastifyReply> {
    const { flow, expired } = await this.flows.forSubmit('recovery', http);
    if ((await this.sessions.fromRequest(http.request)) !== undefined) return this.loggedIn(http, flow.type);
    return this.steps.submit(this.kind, http, flow, expired);
  }

  /**
   * `GET /self-service/recovery?flow=&token=`: the link (seed: `passed_challenge`, no API capability).
   * Unknown, used, or another flow's token → 302 to the recovery UI with a new flow holding 4060004;
   * expired → holding 4060005; valid → session, then 302 to the settings UI with a flow holding 1060001.
   */
  async useLink(http: SelfServiceHttp): Promise<FastifyReply> {
    markBrowserRequest(http.request);
    if ((await this.sessions.fromRequest(http.request)) !== undefined) return this.loggedIn(http, 'browser');
    if (!this.steps.hasToken(http)) {
      throw SelfServiceError.invalidRequest(
        'A recovery request was made but no recovery token was included in the request, please retry the flow.',
        { error_id: 4060003 },
      );
    }
    const link = this.steps.linkQuery(http);
    const redeemed = link === undefined ? undefined : await this.tokens.redeemRecoveryToken(link.token, link.flowId);
    if (link === undefined || redeemed === undefined) return this.steps.restartFromLink(this.kind, http, this.kind.messages.tokenInvalid());
    if (redeemed.expired) return this.steps.restartFromLink(this.kind, http, this.kind.messages.expired(redeemed.expiresAt));

    await this.steps.passChallenge(this.kind, link.flowId, redeemed.identityId);
    const { session, token } = await this.sessions.issue(redeemed.identityId, RECOVERY_METHOD);
    this.sessions.setCookie(http.reply, token);
    const privilegedUntil = new Date(session.authenticatedAt.getTime() + this.config.selfService.privilegedSessionMaxAge * 1000);
    const settings = await this.settings.startFor(redeemed.identityId, 'browser', http, [UiMessages.recoverySuccessful(privilegedUntil)]);
    return this.replies.redirect(http.reply, this.flows.uiUrl(settings));
  }

  /** Recovery is for people who cannot log in: API → 400, browser → the default return URL. */
  private loggedIn(http: SelfServiceHttp, type: FlowType): FastifyReply {
    if (type === 'api') throw SelfServiceError.alreadyLoggedIn('recovery');
    return this.replies.redirect(http.reply, this.config.selfService.defaultBrowserReturnUrl);
  }
}
