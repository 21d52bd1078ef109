import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { IdentitiesService } from '../../identities/identities.service.js';
import type { IdentityRecord } from '../../identities/identity-record.js';
import { attachNodeErrors } from '../flows/form-errors.js';
import { decodeSubmission, stringField } from '../forms/submission.js';
import type { FlowEntity } from '../flows/entities/flow.entity.js';
import { FLOW_KINDS, type FlowType } from '../flows/flow-kind.js';
import { toFlowResponse } from '../flows/flow.mapper.js';
import { json, redirect, type FlowOutcome } from '../flows/flow-outcome.js';
import { FlowsService } from '../flows/flows.service.js';
import { markBrowserFlow, type SelfServiceRequest } from '../flows/self-service-request.js';
import { SelfServiceError } from '../self-service.errors.js';
import { toSessionResponse } from '../sessions/session.mapper.js';
import { SessionsService, type ActiveSession } from '../sessions/sessions.service.js';
import type { UiText } from '../ui/ui-container.js';
import { UiMessages } from '../ui/ui-messages.js';
import { LOGIN_FIELDS, loginNodes } from './login-form.js';
import { LoginThrottle } from './login-throttle.js';
import { PasswordVerifier } from './password-verifier.js';

const METHOD = 'password';

/**
 * The login flow with the password method (reference §1.5, seed 001): init for API clients and
 * browsers, fetch, and submit. A submit runs named steps: load the flow (expired → a fresh one),
 * refuse a second login, decode, check the API/browser conventions, pick the method, check required
 * fields, throttle, verify, then issue (or refresh) the session and answer.
 */
@Injectable()
export class LoginFlows {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly flows: FlowsService,
    private readonly sessions: SessionsService,
    private readonly identities: IdentitiesService,
    private readonly verifier: PasswordVerifier,
    private readonly throttle: LoginThrottle,
  ) {}

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
    if (active !== undefined && !refresh) return redirect(returnTo ?? this.config.selfService.defaultBrowserReturnUrl);
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
    // The body is decoded first but judged at its step below; its identifier names the failed-login
    // counts and the password credential, which are read with the flow (one statement) and used at
    // their steps below, as if read there.
    const decoded = decodeLater(request);
    const failures = this.throttle.query(decoded.identifier, request.ip);
    const { flow, expired, failureCounts, credential } = await this.flows.forLoginSubmit(
      request,
      failures,
      this.identities.passwordCredentialRead(decoded.identifier),
    );
    const active = await this.sessions.fromRequest(request);
    if (active !== undefined && !flow.forced) {
      if (flow.type === 'api') throw SelfServiceError.alreadyLoggedIn('login');
      return redirect(flow.returnTo ?? this.config.selfService.defaultBrowserReturnUrl);
    }
    if (expired) {
      const fresh = await this.start(flow.type, request, {
        forced: flow.forced,
        returnTo: flow.returnTo,
        messages: [FLOW_KINDS.login.expiredMessage(flow.expiresAt)],
      });
      return this.flows.restarted(fresh, toFlowResponse(fresh));
    }
    const body = decoded.body();
    this.flows.assertSubmitAllowed(flow, request, body['csrf_token']);
    const identifier = stringField(body, 'password_identifier') ?? '';
    if (stringField(body, 'method') !== METHOD) return this.showForm(flow, identifier, {}, [UiMessages.noLoginStrategy()]);
    const password = stringField(body, 'password') ?? '';
    const missing = requiredErrors({ password_identifier: identifier, password });
    if (Object.keys(missing).length > 0) return this.showForm(flow, identifier, missing, []);

    const attempt = await this.throttle.assertAllowed(identifier, request.ip, failureCounts);
    const verified = await this.verifier.verify(password, credential?.hashedPassword);
    if (credential === undefined || credential.hashedPassword === undefined || !verified) {
      await this.throttle.failed(identifier, request.ip);
      return this.showForm(flow, identifier, {}, [UiMessages.invalidCredentials()]);
    }
    await this.throttle.succeeded(attempt);
    // Told only to whoever knows the password: an inactive identity is not revealed to guessers.
    if (credential.record.identity.state !== 'active') return this.showForm(flow, identifier, {}, [UiMessages.identityDisabled()]);
    // Imported bcrypt hashes (and argon2 of older parameters) become argon2id of today's parameters.
    if (this.verifier.needsRehash(credential.hashedPassword)) await this.identities.updatePassword(credential.identityId, password);
    // The flow is left as it is: a browser leaves it for good, and an API client has its session.
    return this.loggedIn(request, flow, credential.record, active);
  }

  /** Issues the session (or refreshes the one presented, for `refresh=true` by the same identity) and answers. */
  private async loggedIn(
    request: SelfServiceRequest,
    flow: FlowEntity,
    record: IdentityRecord,
    active: ActiveSession | undefined,
  ): Promise<FlowOutcome> {
    const identityId = record.identity.id;
    let session;
    let token: string;
    if (flow.forced && active !== undefined && active.session.identityId === identityId) {
      session = await this.sessions.reauthenticate(active, METHOD);
      token = active.token;
    } else {
      // A new session on every authentication (ASVS 3.2.1); one presented for another identity ends.
      ({ session, token } = await this.sessions.issue(identityId, METHOD));
      if (active !== undefined) await this.sessions.revoke(active.token);
    }
    const sessionResponse = toSessionResponse(session, this.sessions.identityOnWire(record));
    if (flow.type === 'browser') this.sessions.setCookie(request, token);
    return {
      kind: 'completed',
      type: flow.type,
      apiBody: { session: sessionResponse, session_token: token },
      spaBody: sessionResponse,
      location: flow.returnTo ?? this.config.selfService.defaultBrowserReturnUrl,
    };
  }

  /** The form again with errors: API 400 with the flow, browser 302 to the UI. The password is never re-filled. */
  private async showForm(
    flow: FlowEntity,
    identifier: string,
    fieldErrors: Readonly<Record<string, UiText>>,
    messages: readonly UiText[],
  ): Promise<FlowOutcome> {
    const { nodes, orphans } = attachNodeErrors(loginNodes(identifier), fieldErrors);
    const saved = await this.flows.save(flow, { active: METHOD, ui: this.flows.form(flow, nodes, [...messages, ...orphans]) });
    return this.flows.shown(saved, toFlowResponse(saved), 400);
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

/** A login submit's body, decoded up front; `body()` returns it or throws what decoding threw. */
function decodeLater(request: SelfServiceRequest): { identifier: string; body: () => Record<string, unknown> } {
  try {
    const body = decodeSubmission(request, LOGIN_FIELDS);
    return { identifier: stringField(body, 'password_identifier') ?? '', body: () => body };
  } catch (error) {
    return {
      identifier: '',
      body: () => {
        throw error;
      },
    };
  }
}

function refreshRequested(request: SelfServiceRequest): boolean {
  return request.query['refresh'] === 'true';
}

/** 4000002 "Property X is missing." for each empty required field. */
function requiredErrors(fields: Readonly<Record<string, string>>): Record<string, UiText> {
  const errors: Record<string, UiText> = {};
  for (const [name, value] of Object.entries(fields)) if (value === '') errors[name] = UiMessages.validationRequired(name);
  return errors;
}
