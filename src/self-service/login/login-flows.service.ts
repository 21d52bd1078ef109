import { Injectable } from '@nestjs/common';
import type { SelfServiceConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { IdentitiesService } from '../../identities/index.js';
import { stringField } from '../forms/submission.js';
import { CsrfProtection } from '../csrf/csrf-protection.js';
import type { FlowEntity } from '../flows/entities/flow.entity.js';
import type { FlowType } from '../flows/flow-kind.js';
import { methodOf, type FlowMethod } from '../flows/flow-method.js';
import { json, redirect, type FlowOutcome } from '../flows/flow-outcome.js';
import { toFlowResponse } from '../flows/flow.mapper.js';
import { FlowsService } from '../flows/flows.service.js';
import { markBrowserFlow, type SelfServiceRequest } from '../flows/self-service-request.js';
import { checkCsrf } from '../flows/steps/check-csrf.js';
import { decodeAhead } from '../flows/steps/decode-ahead.js';
import { refuseSignedIn } from '../flows/steps/enforce-session-rule.js';
import { restartIfExpired, type FlowRestarter } from '../flows/steps/restart-if-expired.js';
import { SelfServiceError } from '../self-service.errors.js';
import { SessionsService } from '../sessions/sessions.service.js';
import type { UiText } from '../ui/ui-container.js';
import { UiMessages } from '../ui/ui-messages.js';
import { showLoginForm } from './login-answers.js';
import { LOGIN_FIELDS, loginNodes } from './login-form.js';
import { LoginThrottle } from './login-throttle.js';
import { PasswordLoginMethod, type LoginState } from './password-login.method.js';

/**
 * The login flow: init for API clients and browsers, fetch, and submit. A submit is its prologue of
 * named steps (flows/steps), then the method the body names (`password`, the only one so far) as a
 * strategy.
 */
@Injectable()
export class LoginFlows implements FlowRestarter {
  private readonly methods: readonly FlowMethod<LoginState>[];

  constructor(
    @InjectConfig('selfService') private readonly selfService: SelfServiceConfig,
    private readonly flows: FlowsService,
    private readonly sessions: SessionsService,
    private readonly identities: IdentitiesService,
    private readonly csrf: CsrfProtection,
    private readonly throttle: LoginThrottle,
    password: PasswordLoginMethod,
  ) {
    this.methods = [password];
  }

  /** `GET /self-service/login/api`: 400 with a valid session unless `refresh=true`. */
  async initApi(request: SelfServiceRequest): Promise<FlowOutcome> {
    const refresh = refreshRequested(request);
    const active = await this.sessions.fromRequest(request);
    if (active !== undefined && !refresh) throw SelfServiceError.alreadyLoggedIn('login');
    const flow = await this.start('api', request, { forced: refresh });
    return this.flows.shown(flow, toFlowResponse(flow), 200);
  }

  /** `GET /self-service/login/browser`: 302 to the login UI, or on to `return_to` when already logged in. */
  async initBrowser(request: SelfServiceRequest): Promise<FlowOutcome> {
    markBrowserFlow(request);
    const returnTo = this.flows.returnTo(request);
    const refresh = refreshRequested(request);
    const active = await this.sessions.fromRequest(request);
    if (active !== undefined && !refresh) return redirect(returnTo ?? this.selfService.defaultBrowserReturnUrl);
    const flow = await this.start('browser', request, { forced: refresh, returnTo });
    return this.flows.shown(flow, toFlowResponse(flow), 200);
  }

  /** `GET /self-service/login/flows?id=`. */
  async fetch(request: SelfServiceRequest): Promise<FlowOutcome> {
    const flow = await this.flows.fetch('login', request.query['id']);
    return json(200, toFlowResponse(flow));
  }

  /** `POST /self-service/login?flow=`. */
  async submit(request: SelfServiceRequest): Promise<FlowOutcome> {
    // The body is decoded first but judged at its step below: its identifier names the failed-login
    // counts and the password credential, read with the flow (one statement) for the password method.
    const ahead = decodeAhead(request, LOGIN_FIELDS);
    const identifier = ahead.decoded === undefined ? '' : (stringField(ahead.decoded, 'password_identifier') ?? '');
    const submitted = await this.flows.forLoginSubmit(
      request,
      this.throttle.query(identifier, request.ip),
      this.identities.passwordCredentialRead(identifier),
    );
    const { flow } = submitted;
    const active = await this.sessions.fromRequest(request);
    const signedIn = flow.forced
      ? undefined
      : refuseSignedIn('login', flow, active, flow.returnTo ?? this.selfService.defaultBrowserReturnUrl);
    if (signedIn !== undefined) return signedIn;
    const restarted = restartIfExpired(this, request, submitted, undefined);
    if (restarted !== undefined) return restarted;
    const body = ahead.body();
    checkCsrf(this.csrf, flow, request, body);
    const method = methodOf(this.methods, body);
    if (method === undefined) {
      return showLoginForm(this.flows, flow, stringField(body, 'password_identifier') ?? '', {}, [UiMessages.noLoginStrategy()]);
    }
    return method.submit(request, flow, body, { failureCounts: submitted.failureCounts, credential: submitted.credential, active });
  }

  /** A fresh login flow replacing `replaced` (same type, `refresh` and `return_to`), carrying `message`. */
  async restart(request: SelfServiceRequest, replaced: FlowEntity, message: UiText): Promise<FlowOutcome> {
    const fresh = await this.start(replaced.type, request, { forced: replaced.forced, returnTo: replaced.returnTo, messages: [message] });
    return this.flows.restarted(fresh, toFlowResponse(fresh));
  }

  private start(
    type: FlowType,
    request: SelfServiceRequest,
    options: { forced: boolean; returnTo?: string | null | undefined; messages?: readonly UiText[] },
  ): Promise<FlowEntity> {
    return this.flows.start(
      {
        kind: 'login',
        type,
        nodes: loginNodes(),
        forced: options.forced,
        returnTo: options.returnTo ?? null,
        messages: options.messages ?? [],
      },
      request,
    );
  }
}

function refreshRequested(request: SelfServiceRequest): boolean {
  return request.query['refresh'] === 'true';
}
