import { Injectable } from '@nestjs/common';
import { AddressTokensService } from '../../identities/index.js';
import type { SelfServiceConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { redirect, type FlowOutcome } from '../flows/flow-outcome.js';
import { FlowsService } from '../flows/flows.service.js';
import { markBrowserFlow, type SelfServiceRequest } from '../flows/self-service-request.js';
import { LinkFlowSteps } from '../recovery/link-flow-steps.js';
import { SelfServiceError } from '../self-service.errors.js';
import { VerificationFlowKind } from './verification-flow-kind.js';

/**
 * The verification flow with the link method (Kratos v0.6 `strategy/link`): init,
 * fetch, submit an address (a link to a known verifiable address, the "invalid" e-mail otherwise), and
 * the link itself, which marks the address verified and sends the browser on to `return_to` or
 * SELFSERVICE_DEFAULT_BROWSER_RETURN_URL. Unlike recovery it works with or without a session.
 */
@Injectable()
export class VerificationFlows {
  constructor(
    @InjectConfig('selfService') private readonly selfService: SelfServiceConfig,
    private readonly steps: LinkFlowSteps,
    private readonly kind: VerificationFlowKind,
    private readonly flows: FlowsService,
    private readonly tokens: AddressTokensService,
  ) {}

  async initApi(request: SelfServiceRequest): Promise<FlowOutcome> {
    return this.steps.init(this.kind, 'api', request);
  }

  async initBrowser(request: SelfServiceRequest): Promise<FlowOutcome> {
    markBrowserFlow(request);
    return this.steps.init(this.kind, 'browser', request, this.flows.returnTo(request));
  }

  async fetch(request: SelfServiceRequest): Promise<FlowOutcome> {
    return this.steps.fetch(this.kind, request);
  }

  /** `POST /self-service/verification?flow=`. */
  async submit(request: SelfServiceRequest): Promise<FlowOutcome> {
    const submitted = await this.flows.forSubmit('verification', request);
    return this.steps.submitFlow(this.kind, request, submitted);
  }

  /**
   * `GET /self-service/verification?flow=&token=`: the link. A token unknown, used, or issued for
   * another flow → a new browser flow with 4070001; expired → with 4070005; otherwise the address is
   * verified and the browser goes on.
   */
  async useLink(request: SelfServiceRequest): Promise<FlowOutcome> {
    markBrowserFlow(request);
    if (!this.steps.hasToken(request))
      throw SelfServiceError.invalidRequest('The verification link carries no token; start the flow again.');
    const link = this.steps.linkQuery(request);
    const redeemed = link === undefined ? undefined : await this.tokens.redeemVerificationToken(link.token, link.flowId);
    if (link === undefined || redeemed === undefined)
      return this.steps.restartFromLink(this.kind, request, this.kind.messages.tokenInvalid());
    if (redeemed.expired) return this.steps.restartFromLink(this.kind, request, this.kind.messages.expired(redeemed.expiresAt));
    const flow = await this.steps.passChallenge(this.kind, link.flowId, redeemed.identityId);
    return redirect(flow?.returnTo ?? this.selfService.defaultBrowserReturnUrl);
  }
}
