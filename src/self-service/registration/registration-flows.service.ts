import { Injectable } from '@nestjs/common';
import type { SelfServiceConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { IdentitiesService } from '../../identities/index.js';
import { CsrfProtection } from '../csrf/csrf-protection.js';
import type { FlowEntity } from '../flows/entities/flow.entity.js';
import type { FlowType } from '../flows/flow-kind.js';
import { methodOf, type FlowMethod } from '../flows/flow-method.js';
import { json, redirect, type FlowOutcome } from '../flows/flow-outcome.js';
import { toFlowResponse } from '../flows/flow.mapper.js';
import { FlowsService } from '../flows/flows.service.js';
import { markBrowserFlow, type SelfServiceRequest } from '../flows/self-service-request.js';
import { checkCsrf } from '../flows/steps/check-csrf.js';
import { refuseSignedIn } from '../flows/steps/enforce-session-rule.js';
import { restartIfExpired, type FlowRestarter } from '../flows/steps/restart-if-expired.js';
import { decodeSubmission } from '../forms/submission.js';
import { SelfServiceError } from '../self-service.errors.js';
import { SessionsService } from '../sessions/sessions.service.js';
import type { UiText } from '../ui/ui-container.js';
import { UiMessages } from '../ui/ui-messages.js';
import { PasswordRegistrationMethod } from './password-registration.method.js';
import { showRegistrationForm, submittedTraits } from './registration-answers.js';
import { registrationFields, registrationNodes } from './registration-form.js';

/**
 * The registration flow: init, fetch, and submit, whose prologue is the named steps of flows/steps and
 * whose method (`password`, the only one so far) is a strategy.
 */
@Injectable()
export class RegistrationFlows implements FlowRestarter {
  private readonly methods: readonly FlowMethod<void>[];

  constructor(
    @InjectConfig('selfService') private readonly selfService: SelfServiceConfig,
    private readonly flows: FlowsService,
    private readonly csrf: CsrfProtection,
    private readonly sessions: SessionsService,
    private readonly identities: IdentitiesService,
    password: PasswordRegistrationMethod,
  ) {
    this.methods = [password];
  }

  /** `GET /self-service/registration/api`: 400 with a valid session. */
  async initApi(request: SelfServiceRequest): Promise<FlowOutcome> {
    if ((await this.sessions.fromRequest(request)) !== undefined) throw SelfServiceError.alreadyLoggedIn('registration');
    const flow = await this.start('api', request, null, []);
    return this.flows.shown(flow, toFlowResponse(flow), 200);
  }

  /** `GET /self-service/registration/browser`: 302 to the registration UI, or to `return_to` when logged in. */
  async initBrowser(request: SelfServiceRequest): Promise<FlowOutcome> {
    markBrowserFlow(request);
    const returnTo = this.flows.returnTo(request);
    if ((await this.sessions.fromRequest(request)) !== undefined) {
      return redirect(returnTo ?? this.selfService.defaultBrowserReturnUrl);
    }
    const flow = await this.start('browser', request, returnTo ?? null, []);
    return this.flows.shown(flow, toFlowResponse(flow), 200);
  }

  /** `GET /self-service/registration/flows?id=`. */
  async fetch(request: SelfServiceRequest): Promise<FlowOutcome> {
    const flow = await this.flows.fetch('registration', request.query['id']);
    return json(200, toFlowResponse(flow));
  }

  /** `POST /self-service/registration?flow=`: the prologue's steps, then the method the body names. */
  async submit(request: SelfServiceRequest): Promise<FlowOutcome> {
    const submitted = await this.flows.forSubmit('registration', request);
    const { flow } = submitted;
    const active = await this.sessions.fromRequest(request);
    const signedIn = refuseSignedIn('registration', flow, active, flow.returnTo ?? this.selfService.defaultBrowserReturnUrl);
    if (signedIn !== undefined) return signedIn;
    const restarted = restartIfExpired(this, request, submitted, undefined);
    if (restarted !== undefined) return restarted;
    const body = decodeSubmission(request, registrationFields(this.identities.schemaDocument(undefined)));
    checkCsrf(this.csrf, flow, request, body);
    const method = methodOf(this.methods, body);
    if (method === undefined) {
      return showRegistrationForm(this.flows, this.identities, flow, submittedTraits(body), {
        form: [UiMessages.noRegistrationStrategy()],
      });
    }
    return method.submit(request, flow, body, undefined);
  }

  /** A fresh registration flow replacing `replaced` (same type and `return_to`), carrying `message`. */
  async restart(request: SelfServiceRequest, replaced: FlowEntity, message: UiText): Promise<FlowOutcome> {
    const fresh = await this.start(replaced.type, request, replaced.returnTo, [message]);
    return this.flows.restarted(fresh, toFlowResponse(fresh));
  }

  private start(type: FlowType, request: SelfServiceRequest, returnTo: string | null, messages: readonly UiText[]): Promise<FlowEntity> {
    const nodes = registrationNodes(this.identities.schemaDocument(undefined));
    return this.flows.start({ kind: 'registration', type, nodes, returnTo, messages }, request);
  }
}
