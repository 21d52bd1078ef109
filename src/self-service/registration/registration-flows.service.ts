import { Inject, Injectable } from '@nestjs/common';
import { CsrfProtection } from '../csrf/csrf-protection.js';
import { checkCsrf } from '../flows/steps/check-csrf.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { IdentitiesService, type TraitsDescription } from '../../identities/identities.service.js';
import type { IdentityRecord } from '../../identities/identity-record.js';
import { attachNodeErrors, type FormErrors } from '../flows/form-errors.js';
import type { FlowEntity } from '../flows/entities/flow.entity.js';
import { FLOW_KINDS, type FlowType } from '../flows/flow-kind.js';
import { toFlowResponse } from '../flows/flow.mapper.js';
import { json, redirect, type FlowOutcome } from '../flows/flow-outcome.js';
import { FlowsService } from '../flows/flows.service.js';
import { markBrowserFlow, type SelfServiceRequest } from '../flows/self-service-request.js';
import { traitsProblemOf } from '../flows/trait-errors.js';
import { decodeSubmission, stringField } from '../forms/submission.js';
import { PasswordPolicy } from '../password-policy/password-policy.js';
import { SelfServiceError } from '../self-service.errors.js';
import { toSessionResponse } from '../sessions/session.mapper.js';
import { SessionsService } from '../sessions/sessions.service.js';
import type { UiText } from '../ui/ui-container.js';
import { UiMessages } from '../ui/ui-messages.js';
import { VerificationSender } from '../verification/verification-sender.js';
import { registrationFields, registrationNodes } from './registration-form.js';

const METHOD = 'password';

/**
 * The registration flow with the password method (reference §1.12): traits from the default identity
 * schema, a password through the password policy, then the identity, a verification e-mail for each
 * new address, and a session. Submit steps: load (expired → fresh), refuse when logged in, decode by
 * the schema, API/browser conventions, method, traits, password policy, create, verification, session,
 * answer.
 */
@Injectable()
export class RegistrationFlows {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly flows: FlowsService,
    private readonly csrf: CsrfProtection,
    private readonly sessions: SessionsService,
    private readonly identities: IdentitiesService,
    private readonly policy: PasswordPolicy,
    private readonly verification: VerificationSender,
  ) {}

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
      return redirect(returnTo ?? this.config.selfService.defaultBrowserReturnUrl);
    }
    const flow = await this.start('browser', request, returnTo ?? null, []);
    return this.flows.shown(flow, toFlowResponse(flow), 200);
  }

  /** `GET /self-service/registration/flows?id=`. */
  async fetch(request: SelfServiceRequest): Promise<FlowOutcome> {
    const flow = await this.flows.fetch('registration', request.query['id']);
    return json(200, toFlowResponse(flow));
  }

  /** `POST /self-service/registration?flow=`. */
  async submit(request: SelfServiceRequest): Promise<FlowOutcome> {
    const { flow, expired } = await this.flows.forSubmit('registration', request);
    if ((await this.sessions.fromRequest(request)) !== undefined) {
      if (flow.type === 'api') throw SelfServiceError.alreadyLoggedIn('registration');
      return redirect(flow.returnTo ?? this.config.selfService.defaultBrowserReturnUrl);
    }
    if (expired) {
      const fresh = await this.start(flow.type, request, flow.returnTo, [FLOW_KINDS.registration.expiredMessage(flow.expiresAt)]);
      return this.flows.restarted(fresh, toFlowResponse(fresh));
    }
    const schema = this.identities.schemaDocument(undefined);
    const body = decodeSubmission(request, registrationFields(schema));
    checkCsrf(this.csrf, flow, request, body);
    const traits = isObject(body['traits']) ? body['traits'] : {};
    if (stringField(body, 'method') !== METHOD) return this.showForm(flow, traits, { form: [UiMessages.noRegistrationStrategy()] });

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
    await this.flows.save(flow, { active: METHOD });
    // Queued only (the courier sends): registering never waits for, or fails on, the mail server.
    await this.verification.sendFor(created);
    return this.registered(request, flow, created);
  }

  /** Issues the session of the new identity and answers (API: identity, session, token; browser: cookie + 302). */
  private async registered(request: SelfServiceRequest, flow: FlowEntity, record: IdentityRecord): Promise<FlowOutcome> {
    const { session, token } = await this.sessions.issue(record.identity.id, METHOD);
    const identity = this.sessions.identityOnWire(record);
    const sessionResponse = toSessionResponse(session, identity);
    if (flow.type === 'browser') this.sessions.setCookie(request, token);
    return {
      kind: 'completed',
      type: flow.type,
      apiBody: { identity, session: sessionResponse, session_token: token },
      spaBody: { identity, session: sessionResponse },
      location: flow.returnTo ?? this.config.selfService.defaultBrowserReturnUrl,
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

  /** The form again with the submitted traits and the errors: API 400, browser 302 to the UI. */
  private async showForm(flow: FlowEntity, traits: unknown, errors: FormErrors): Promise<FlowOutcome> {
    const { nodes, orphans } = attachNodeErrors(registrationNodes(this.identities.schemaDocument(undefined), traits), errors.nodes);
    const saved = await this.flows.save(flow, { active: METHOD, ui: this.flows.form(flow, nodes, [...(errors.form ?? []), ...orphans]) });
    return this.flows.shown(saved, toFlowResponse(saved), 400);
  }

  private start(type: FlowType, request: SelfServiceRequest, returnTo: string | null, messages: readonly UiText[]): Promise<FlowEntity> {
    const nodes = registrationNodes(this.identities.schemaDocument(undefined));
    return this.flows.start({ kind: 'registration', type, nodes, returnTo, messages }, request);
  }
}

function problemErrors(problem: { readonly node: string | undefined; readonly message: UiText }): FormErrors {
  return problem.node === undefined ? { form: [problem.message] } : { nodes: { [problem.node]: problem.message } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
