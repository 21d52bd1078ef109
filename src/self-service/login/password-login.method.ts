import { Injectable } from '@nestjs/common';
import type { SelfServiceConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { type PasswordCredential, IdentitiesService, type IdentityRecord } from '../../identities/index.js';
import type { FlowEntity } from '../flows/entities/flow.entity.js';
import type { FlowMethod } from '../flows/flow-method.js';
import type { FlowOutcome } from '../flows/flow-outcome.js';
import { FlowsService } from '../flows/flows.service.js';
import type { SelfServiceRequest } from '../flows/self-service-request.js';
import { stringField } from '../forms/submission.js';
import { toSessionResponse } from '../sessions/session.mapper.js';
import { SessionsService, type ActiveSession } from '../sessions/sessions.service.js';
import type { UiText } from '../ui/ui-container.js';
import { UiMessages } from '../ui/ui-messages.js';
import { PASSWORD_METHOD, showLoginForm } from './login-answers.js';
import { LoginThrottle, type FailureCounts } from './login-throttle.js';
import { PasswordVerifier } from './password-verifier.js';

/** What the login prologue read for the password method: with the flow, in one statement; and the session presented. */
export interface LoginState {
  readonly failureCounts: FailureCounts;
  readonly credential: PasswordCredential | undefined;
  readonly active: ActiveSession | undefined;
}

/**
 * The `password` login method: required fields, throttle, verify, then issue (or refresh) the session.
 * A wrong identifier and a wrong password answer alike.
 */
@Injectable()
export class PasswordLoginMethod implements FlowMethod<LoginState> {
  readonly method = PASSWORD_METHOD;

  constructor(
    @InjectConfig('selfService') private readonly selfService: SelfServiceConfig,
    private readonly flows: FlowsService,
    private readonly sessions: SessionsService,
    private readonly identities: IdentitiesService,
    private readonly verifier: PasswordVerifier,
    private readonly throttle: LoginThrottle,
  ) {}

  async submit(request: SelfServiceRequest, flow: FlowEntity, body: Record<string, unknown>, state: LoginState): Promise<FlowOutcome> {
    const { failureCounts, credential } = state;
    const identifier = stringField(body, 'password_identifier') ?? '';
    const password = stringField(body, 'password') ?? '';
    const missing = requiredErrors({ password_identifier: identifier, password });
    if (Object.keys(missing).length > 0) return showLoginForm(this.flows, flow, identifier, missing, []);

    const attempt = await this.throttle.assertAllowed(identifier, request.ip, failureCounts);
    const verified = await this.verifier.verify(password, credential?.hashedPassword);
    if (credential === undefined || credential.hashedPassword === undefined || !verified) {
      await this.throttle.failed(identifier, request.ip);
      return showLoginForm(this.flows, flow, identifier, {}, [UiMessages.invalidCredentials()]);
    }
    await this.throttle.succeeded(attempt);
    // Told only to whoever knows the password: an inactive identity is not revealed to guessers.
    if (credential.record.identity.state !== 'active')
      return showLoginForm(this.flows, flow, identifier, {}, [UiMessages.identityDisabled()]);
    // Imported bcrypt hashes (and argon2 of older parameters) become argon2id of today's parameters.
    if (this.verifier.needsRehash(credential.hashedPassword)) await this.identities.updatePassword(credential.identityId, password);
    // The flow is left as it is: a browser leaves it for good, and an API client has its session.
    return this.loggedIn(request, flow, credential.record, state.active);
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
      session = await this.sessions.reauthenticate(active, PASSWORD_METHOD);
      token = active.token;
    } else {
      // A new session on every authentication (ASVS 3.2.1); one presented for another identity ends.
      ({ session, token } = await this.sessions.issue(identityId, PASSWORD_METHOD));
      if (active !== undefined) await this.sessions.revoke(active.token);
    }
    const sessionResponse = toSessionResponse(session, this.sessions.identityOnWire(record));
    if (flow.type === 'browser') this.sessions.setCookie(request, token);
    return {
      kind: 'completed',
      type: flow.type,
      apiBody: { session: sessionResponse, session_token: token },
      spaBody: sessionResponse,
      location: flow.returnTo ?? this.selfService.defaultBrowserReturnUrl,
    };
  }
}

/** 4000002 "Property X is missing." for each empty required field. */
function requiredErrors(fields: Readonly<Record<string, string>>): Record<string, UiText> {
  const errors: Record<string, UiText> = {};
  for (const [name, value] of Object.entries(fields)) if (value === '') errors[name] = UiMessages.validationRequired(name);
  return errors;
}
