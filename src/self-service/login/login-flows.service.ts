import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { IdentitiesService, type IdentityRecord } from '../../identities/index.js';
import { attachNodeErrors } from '../flows/form-errors.js';
import { decodeSubmission, stringField } from '../forms/submission.js';
import { markBrowserRequest, wantsJson } from '../flows/browser-requests.js';
import type { FlowEntity } from '../flows/entities/flow.entity.js';
import { FLOW_KINDS, type FlowType } from '../flows/flow-kind.js';
import { toFlowResponse } from '../flows/flow.mapper.js';
import { FlowReplies } from '../flows/flow-replies.js';
import { FlowsService, type SelfServiceHttp } from '../flows/flows.service.js';
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
    private readonly replies: FlowReplies,
    private readonly sessions: SessionsService,
    private readonly identities: IdentitiesService,
    private readonly verifier: PasswordVerifier,
    private readonly throttle: LoginThrottle,
  ) {}

  /** `GET /self-service/login/api`: 400 with a valid session unless `refresh=true`. */
  async initApi(http: SelfServiceHttp): Promise<FastifyReply> {
    const refresh = refreshRequested(http);
    const active = await this.sessions.fromRequest(http.request);
    if (active !== undefined && !refresh) throw SelfServiceError.alreadyLoggedIn('login');
    const flow = await this.start('api', http, { forced: refresh });
    return this.replies.started(http, flow, toFlowResponse(flow), this.flows.uiUrl(flow));
  }

  /** `GET /self-service/login/browser`: 302 to the login UI, or on to `return_to` when already logged in. */
  async initBrowser(http: SelfServiceHttp): Promise<FastifyReply> {
    markBrowserRequest(http.request);
    const returnTo = this.flows.returnTo(http.request);
    const refresh = refreshRequested(http);
    const active = await this.sessions.fromRequest(http.request);
    if (active !== undefined && !refresh)
      return this.replies.redirect(http.reply, returnTo ?? this.config.selfService.defaultBrowserReturnUrl);
    const flow = await this.start('browser', http, { forced: refresh, returnTo });
    return this.replies.started(http, flow, toFlowResponse(flow), this.flows.uiUrl(flow));
  }

  /** `GET /self-service/login/flows?id=`. */
  async fetch(http: SelfServiceHttp): Promise<FastifyReply> {
    const flow = await this.flows.fetch('login', (http.request.query as Record<string, unknown>)['id']);
    return this.replies.json(http.reply, 200, toFlowResponse(flow));
  }

  /** `POST /self-service/login?flow=`. */
  async submit(http: SelfServiceHttp): Promise<FastifyReply> {
    // The body is decoded first but judged at its step below; its identifier names the failed-login
    // counts and the password credential, which are read with the flow (one statement) and used at
    // their steps below, as if read there.
    const decoded = decodeLater(http);
    const failures = this.throttle.query(decoded.identifier, http.request.ip);
    const { flow, expired, failureCounts, credential } = await this.flows.forLoginSubmit(
      http,
      failures,
      this.identities.passwordCredentialRead(decoded.identifier),
    );
    const active = await this.sessions.fromRequest(http.request);
    if (active !== undefined && !flow.forced) {
      if (flow.type === 'api') throw SelfServiceError.alreadyLoggedIn('login');
      return this.replies.redirect(http.reply, flow.returnTo ?? this.config.selfService.defaultBrowserReturnUrl);
    }
    if (expired) {
      const fresh = await this.start(flow.type, http, {
        forced: flow.forced,
        returnTo: flow.returnTo,
        messages: [FLOW_KINDS.login.expiredMessage(flow.expiresAt)],
      });
      return this.replies.restarted(http, fresh, toFlowResponse(fresh), this.flows.uiUrl(fresh));
    }
    const body = decoded.body();
    this.flows.assertSubmitAllowed(flow, http.request, body['csrf_token']);
    const identifier = stringField(body, 'password_identifier') ?? '';
    if (stringField(body, 'method') !== METHOD) return this.showForm(http, flow, identifier, {}, [UiMessages.noLoginStrategy()]);
    const password = stringField(body, 'password') ?? '';
    const missing = requiredErrors({ password_identifier: identifier, password });
    if (Object.keys(missing).length > 0) return this.showForm(http, flow, identifier, missing, []);

    const attempt = await this.throttle.assertAllowed(identifier, http.request.ip, failureCounts);
    const verified = await this.verifier.verify(password, credential?.hashedPassword);
    if (credential === undefined || credential.hashedPassword === undefined || !verified) {
      await this.throttle.failed(identifier, http.request.ip);
      return this.showForm(http, flow, identifier, {}, [UiMessages.invalidCredentials()]);
    }
    await this.throttle.succeeded(attempt);
    // Told only to whoever knows the password: an inactive identity is not revealed to guessers.
    if (credential.record.identity.state !== 'active') return this.showForm(http, flow, identifier, {}, [UiMessages.identityDisabled()]);
    // Imported bcrypt hashes (and argon2 of older parameters) become argon2id of today's parameters.
    if (this.verifier.needsRehash(credential.hashedPassword)) await this.identities.updatePassword(credential.identityId, password);
    // The flow is left as it is: a browser leaves it for good, and an API client has its session.
    return this.loggedIn(http, flow, credential.record, active);
  }

  /** Issues the session (or refreshes the one presented, for `refresh=true` by the same identity) and answers. */
  private async loggedIn(
    http: SelfServiceHttp,
    flow: FlowEntity,
    record: IdentityRecord,
    active: ActiveSession | undefined,
  ): Promise<FastifyReply> {
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
    if (flow.type === 'api') return this.replies.json(http.reply, 200, { session: sessionResponse, session_token: token });
    this.sessions.setCookie(http.reply, token);
    if (wantsJson(http.request)) return this.replies.json(http.reply, 200, sessionResponse);
    return this.replies.redirect(http.reply, flow.returnTo ?? this.config.selfService.defaultBrowserReturnUrl);
  }

  /** The form again with errors: API 400 with the flow, browser 302 to the UI. The password is never re-filled. */
  private async showForm(
    http: SelfServiceHttp,
    flow: FlowEntity,
    identifier: string,
    fieldErrors: Readonly<Record<string, UiText>>,
    messages: readonly UiText[],
  ): Promise<FastifyReply> {
    const { nodes, orphans } = attachNodeErrors(loginNodes(identifier), fieldErrors);
    const saved = await this.flows.save(flow, { active: METHOD, ui: this.flows.form(flow, nodes, [...messages, ...orphans]) });
    return this.replies.form(http, saved, toFlowResponse(saved), this.flows.uiUrl(saved), 400);
  }

  private start(
    type: FlowType,
    http: SelfServiceHttp,
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
      http,
    );
  }
}

/** A login submit's body, decoded up front; `body()` returns it or throws what decoding threw. */
function decodeLater(http: SelfServiceHttp): { identifier: string; body: () => Record<string, unknown> } {
  try {
    const body = decodeSubmission(http.request, LOGIN_FIELDS);
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

function refreshRequested(http: SelfServiceHttp): boolean {
  return (http.request.query as Record<string, unknown>)['refresh'] === 'true';
}

/** 4000002 "Property X is missing." for each empty required field. */
function requiredErrors(fields: Readonly<Record<string, string>>): Record<string, UiText> {
  const errors: Record<string, UiText> = {};
  for (const [name, value] of Object.entries(fields)) if (value === '') errors[name] = UiMessages.validationRequired(name);
  return errors;
}
