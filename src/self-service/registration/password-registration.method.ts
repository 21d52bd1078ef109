import { Injectable } from '@nestjs/common';
import type { SelfServiceConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { IdentitiesService, type TraitsDescription, type IdentityRecord } from '../../identities/index.js';
import type { FlowEntity } from '../flows/entities/flow.entity.js';
import type { FlowMethod } from '../flows/flow-method.js';
import type { FlowOutcome } from '../flows/flow-outcome.js';
import { FlowsService } from '../flows/flows.service.js';
import type { FormErrors } from '../flows/form-errors.js';
import type { SelfServiceRequest } from '../flows/self-service-request.js';
import { traitsProblemOf } from '../flows/trait-errors.js';
import { stringField } from '../forms/submission.js';
import { PasswordPolicy } from '../password-policy/password-policy.js';
import { toSessionResponse } from '../sessions/session.mapper.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { UiMessages } from '../ui/ui-messages.js';
import { VerificationSender } from '../verification/verification-sender.js';
import { PASSWORD_METHOD, problemErrors, showRegistrationForm, submittedTraits } from './registration-answers.js';

/**
 * The `password` registration method: traits from the default identity schema, a password through the
 * password policy, then the identity, a verification e-mail for each new address, and a session.
 */
@Injectable()
export class PasswordRegistrationMethod implements FlowMethod<void> {
  readonly method = PASSWORD_METHOD;

  constructor(
    @InjectConfig('selfService') private readonly selfService: SelfServiceConfig,
    private readonly flows: FlowsService,
    private readonly sessions: SessionsService,
    private readonly identities: IdentitiesService,
    private readonly policy: PasswordPolicy,
    private readonly verification: VerificationSender,
  ) {}

  async submit(request: SelfServiceRequest, flow: FlowEntity, body: Record<string, unknown>): Promise<FlowOutcome> {
    const traits = submittedTraits(body);
    const described = this.describe(traits);
    if ('problem' in described) return this.showForm(flow, traits, described.problem);
    const password = stringField(body, 'password') ?? '';
    if (password === '') return this.showForm(flow, traits, { nodes: { password: UiMessages.validationRequired('password') } });
    const violation = await this.policy.check(password, described.identifiers);
    if (violation !== undefined) return this.showForm(flow, traits, { nodes: { password: violation.message } });

    const created = await this.identities.createWithPassword(described.schemaId, traits, password).catch((error: unknown) => {
      const problem = traitsProblemOf(error);
      if (problem === undefined) throw error;
      return problem;
    });
    if (!('identity' in created)) return this.showForm(flow, traits, problemErrors(created));
    await this.flows.save(flow, { active: PASSWORD_METHOD });
    // Queued only (the courier sends): registering never waits for, or fails on, the mail server.
    await this.verification.sendFor(created);
    return this.registered(request, flow, created);
  }

  /** Issues the session of the new identity and answers (API: identity, session, token; browser: cookie + 302). */
  private async registered(request: SelfServiceRequest, flow: FlowEntity, record: IdentityRecord): Promise<FlowOutcome> {
    const { session, token } = await this.sessions.issue(record.identity.id, PASSWORD_METHOD);
    const identity = this.sessions.identityOnWire(record);
    const sessionResponse = toSessionResponse(session, identity);
    if (flow.type === 'browser') this.sessions.setCookie(request, token);
    return {
      kind: 'completed',
      type: flow.type,
      apiBody: { identity, session: sessionResponse, session_token: token },
      spaBody: { identity, session: sessionResponse },
      location: flow.returnTo ?? this.selfService.defaultBrowserReturnUrl,
    };
  }

  private describe(traits: Record<string, unknown>): TraitsDescription | { problem: FormErrors } {
    try {
      return this.identities.describeTraits(undefined, traits);
    } catch (error) {
      const problem = traitsProblemOf(error);
      if (problem === undefined) throw error;
      return { problem: problemErrors(problem) };
    }
  }

  private showForm(flow: FlowEntity, traits: unknown, errors: FormErrors): Promise<FlowOutcome> {
    return showRegistrationForm(this.flows, this.identities, flow, traits, errors);
  }
}
