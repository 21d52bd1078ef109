import { Injectable } from '@nestjs/common';
import { AddressTokensService } from '../../identities/index.js';
import type { SelfServiceConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import type { FlowType } from '../flows/flow-kind.js';
import { redirect, type FlowOutcome } from '../flows/flow-outcome.js';
import { FlowsService } from '../flows/flows.service.js';
import { markBrowserFlow, type SelfServiceRequest } from '../flows/self-service-request.js';
import { refuseSignedIn } from '../flows/steps/enforce-session-rule.js';
import { SelfServiceError } from '../self-service.errors.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { SettingsFlows } from '../settings/settings-flows.service.js';
import { UiMessages } from '../ui/ui-messages.js';
import { LinkFlowSteps } from './link-flow-steps.js';
import { RecoveryFlowKind } from './recovery-flow-kind.js';

/** The authentication method recorded on a session issued by a recovery link (Kratos' name). */
const RECOVERY_METHOD = 'link_recovery';

/**
 * The recovery flow with the link method (Kratos v0.6 `strategy/link`, with its
 * states). Like Kratos, every route but `flows` is for people without a session: an API client
 * with one gets a 400, a browser is sent to SELFSERVICE_DEFAULT_BROWSER_RETURN_URL. The link
 * (`GET /self-service/recovery?flow=&token=`, also the form of admin recovery links) is single-use,
 * bound to its flow and expires with it; a good one issues a session (the `service_session` cookie)
 * and sends the browser to a new settings flow to set a password.
 */
@Injectable()
export class RecoveryFlows {
  constructor(
    @InjectConfig('selfService') private readonly selfService: SelfServiceConfig,
    private readonly steps: LinkFlowSteps,
    private readonly kind: RecoveryFlowKind,
    private readonly flows: FlowsService,
    private readonly sessions: SessionsService,
    private readonly settings: SettingsFlows,
    private readonly tokens: AddressTokensService,
  ) {}

  /** `GET /self-service/recovery/api`: 400 with a valid session. */
  async initApi(request: SelfServiceRequest): Promise<FlowOutcome> {
    if ((await this.sessions.fromRequest(request)) !== undefined) throw SelfServiceError.alreadyLoggedIn('recovery');
    return this.steps.init(this.kind, 'api', request);
  }

  /** `GET /self-service/recovery/browser`: 302 to the recovery UI (to the default return URL with a session). */
  async initBrowser(request: SelfServiceRequest): Promise<FlowOutcome> {
    markBrowserFlow(request);
    if ((await this.sessions.fromRequest(request)) !== undefined) return this.loggedIn('browser');
    return this.steps.init(this.kind, 'browser', request);
  }

  async fetch(request: SelfServiceRequest): Promise<FlowOutcome> {
    return this.steps.fetch(this.kind, request);
  }

  /** `POST /self-service/recovery?flow=` with `email`: the session rule, then LinkFlowSteps.submitFlow. */
  async submit(request: SelfServiceRequest): Promise<FlowOutcome> {
    const submitted = await this.flows.forSubmit('recovery', request);
    const active = await this.sessions.fromRequest(request);
    const signedIn = refuseSignedIn('recovery', submitted.flow, active, this.selfService.defaultBrowserReturnUrl);
    if (signedIn !== undefined) return signedIn;
    return this.steps.submitFlow(this.kind, request, submitted);
  }

  /**
   * `GET /self-service/recovery?flow=&token=`: the link (seed: `passed_challenge`, no API capability).
   * Unknown, used, or another flow's token → 302 to the recovery UI with a new flow holding 4060004;
   * expired → holding 4060005; valid → session, then 302 to the settings UI with a flow holding 1060001.
   */
  async useLink(request: SelfServiceRequest): Promise<FlowOutcome> {
    markBrowserFlow(request);
    if ((await this.sessions.fromRequest(request)) !== undefined) return this.loggedIn('browser');
    if (!this.steps.hasToken(request)) {
      throw SelfServiceError.invalidRequest(
        'A recovery request was made but no recovery token was included in the request, please retry the flow.',
        { error_id: 4060003 },
      );
    }
    const link = this.steps.linkQuery(request);
    const redeemed = link === undefined ? undefined : await this.tokens.redeemRecoveryToken(link.token, link.flowId);
    if (link === undefined || redeemed === undefined)
      return this.steps.restartFromLink(this.kind, request, this.kind.messages.tokenInvalid());
    if (redeemed.expired) return this.steps.restartFromLink(this.kind, request, this.kind.messages.expired(redeemed.expiresAt));

    await this.steps.passChallenge(this.kind, link.flowId, redeemed.identityId);
    const { session, token } = await this.sessions.issue(redeemed.identityId, RECOVERY_METHOD);
    this.sessions.setCookie(request, token);
    const privilegedUntil = new Date(session.authenticatedAt.getTime() + this.selfService.privilegedSessionMaxAge * 1000);
    const settings = await this.settings.startFor(redeemed.identityId, 'browser', request, [
      UiMessages.recoverySuccessful(privilegedUntil),
    ]);
    return redirect(this.flows.uiUrl(settings));
  }

  /** Recovery is for people who cannot log in: API → 400, browser → the default return URL. */
  private loggedIn(type: FlowType): FlowOutcome {
    if (type === 'api') throw SelfServiceError.alreadyLoggedIn('recovery');
    return redirect(this.selfService.defaultBrowserReturnUrl);
  }
}
