import { Inject, Injectable } from '@nestjs/common';
import { CsrfProtection } from '../csrf/csrf-protection.js';
import { checkCsrf } from '../flows/steps/check-csrf.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { IdentitiesService, type TraitsDescription } from '../../identities/identities.service.js';
import type { IdentityRecord } from '../../identities/identity-record.js';
import type { FlowEntity } from '../flows/entities/flow.entity.js';
import { FLOW_KINDS, type FlowType } from '../flows/flow-kind.js';
import { toFlowResponse } from '../flows/flow.mapper.js';
import { attachNodeErrors, type FormErrors } from '../flows/form-errors.js';
import { json, redirect, type FlowOutcome } from '../flows/flow-outcome.js';
import { FlowsService } from '../flows/flows.service.js';
import { markBrowserFlow, type SelfServiceRequest } from '../flows/self-service-request.js';
import { traitsProblemOf, type TraitsProblem } from '../flows/trait-errors.js';
import { decodeSubmission, stringField } from '../forms/submission.js';
import { PasswordPolicy } from '../password-policy/password-policy.js';
import { SelfServiceError } from '../self-service.errors.js';
import { SessionsService, type ActiveSession } from '../sessions/sessions.service.js';
import type { UiText } from '../ui/ui-container.js';
import { UiMessages } from '../ui/ui-messages.js';
import { VerificationSender } from '../verification/verification-sender.js';
import { settingsFields, settingsNodes } from './settings-form.js';

/** Settings states (Kratos v0.6 `settings/state.go`). */
const SHOW_FORM = 'show_form';
const SUCCESS = 'success';

/**
 * The settings flow (reference §1.12): methods `profile` (traits) and `password`, for the identity of
 * the session. Changing the password, or traits that are login identifiers or addresses, needs a
 * privileged session (authenticated within SELFSERVICE_PRIVILEGED_SESSION_MAX_AGE): otherwise API
 * clients get 403 `session_refresh_required` and browsers are sent to log in again with `refresh=true`.
 */
@Injectable()
export class SettingsFlows {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly flows: FlowsService,
    private readonly csrf: CsrfProtection,
    private readonly sessions: SessionsService,
    private readonly identities: IdentitiesService,
    private readonly policy: PasswordPolicy,
    private readonly verification: VerificationSender,
  ) {}

  /** `GET /self-service/settings/api`: needs a session (`X-Session-Token` or bearer), else 401. */
  async initApi(request: SelfServiceRequest): Promise<FlowOutcome> {
    const active = await this.sessions.require(request);
    const record = await this.identities.get(active.session.identityId);
    const flow = await this.start('api', request, record, { returnTo: null });
    return this.flows.shown(flow, toFlowResponse(flow, this.sessions.identityOnWire(record)), 200);
  }

  /** `GET /self-service/settings/browser`: without a session, 302 to the browser login (coming back here after). */
  async initBrowser(request: SelfServiceRequest): Promise<FlowOutcome> {
    markBrowserFlow(request);
    const returnTo = this.flows.returnTo(request);
    const active = await this.sessions.fromRequest(request);
    if (active === undefined) return redirect(this.loginUrl(false, `${this.config.urls.issuer}${FLOW_KINDS.settings.path}/browser`));
    const record = await this.identities.get(active.session.identityId);
    const flow = await this.start('browser', request, record, { returnTo: returnTo ?? null });
    return this.flows.shown(flow, toFlowResponse(flow, this.sessions.identityOnWire(record)), 200);
  }

  /**
   * Starts a settings flow for an identity whose session was just issued elsewhere (recovery): `messages`
   * such as 1060001 are shown on the form. Returns the flow; the caller answers (e.g. 302 to `flows.uiUrl`).
   */
  async startFor(identityId: string, type: FlowType, request: SelfServiceRequest, messages: readonly UiText[]): Promise<FlowEntity> {
    return this.start(type, request, await this.identities.get(identityId), { returnTo: null, messages });
  }

  /** `GET /self-service/settings/flows?id=`: only for the session of the flow's identity (403 otherwise). */
  async fetch(request: SelfServiceRequest): Promise<FlowOutcome> {
    const active = await this.sessions.require(request);
    const flow = await this.flows.fetch('settings', request.query['id']);
    if (flow.identityId !== active.session.identityId) throw SelfServiceError.identityMismatch();
    return json(200, toFlowResponse(flow, await this.sessions.identityResponse(active.session.identityId)));
  }

  /** `GET /self-service/settings/flows?id=` on the admin listener: the admin credential stands in for the session. */
  async fetchForAdmin(request: SelfServiceRequest): Promise<FlowOutcome> {
    const flow = await this.flows.fetch('settings', request.query['id']);
    return json(200, toFlowResponse(flow, await this.sessions.identityResponse(flow.identityId!)));
  }

  /** `POST /self-service/settings?flow=`. */
  async submit(request: SelfServiceRequest): Promise<FlowOutcome> {
    const { flow, expired } = await this.flows.forSubmit('settings', request);
    const active = await this.sessions.require(request);
    if (flow.identityId !== active.session.identityId) throw SelfServiceError.identityMismatch();
    const record = await this.identities.get(active.session.identityId);
    if (expired) {
      const fresh = await this.start(flow.type, request, record, {
        returnTo: flow.returnTo,
        messages: [FLOW_KINDS.settings.expiredMessage(flow.expiresAt)],
      });
      return this.flows.restarted(fresh, toFlowResponse(fresh, this.sessions.identityOnWire(record)));
    }
    const schema = this.identities.schemaDocument(record.identity.schemaId);
    const body = decodeSubmission(request, settingsFields(schema));
    checkCsrf(this.csrf, flow, request, body);
    switch (stringField(body, 'method')) {
      case 'profile':
        return this.updateProfile(flow, active, record, body['traits']);
      case 'password':
        return this.updatePassword(flow, active, record, stringField(body, 'password') ?? '');
      default:
        return this.showForm(flow, record, record.identity.traits, { form: [UiMessages.noSettingsStrategy()] }, null);
    }
  }

  private async updateProfile(flow: FlowEntity, active: ActiveSession, record: IdentityRecord, traits: unknown): Promise<FlowOutcome> {
    if (traits === null || typeof traits !== 'object' || Array.isArray(traits)) {
      return this.showForm(flow, record, record.identity.traits, { form: [UiMessages.validationRequired('traits')] }, 'profile');
    }
    const wanted = traits as Record<string, unknown>;
    const next = this.describe(record.identity.schemaId, wanted);
    if ('problem' in next) return this.showForm(flow, record, wanted, problemErrors(next.problem), 'profile');
    if (changesProtectedTraits(this.describeCurrent(record), next) && !this.sessions.isPrivileged(active.session)) {
      return this.refreshRequired(flow);
    }
    const updated = await this.identities.updateTraits(record.identity.id, wanted).catch((error: unknown) => {
      const problem = traitsProblemOf(error);
      if (problem === undefined) throw error;
      return problem;
    });
    if (!('identity' in updated)) return this.showForm(flow, record, wanted, problemErrors(updated), 'profile');
    // A new address gets its verification link (the ones already sent or verified do not).
    await this.verification.sendFor(updated);
    return this.saved(flow, updated, 'profile');
  }

  private async updatePassword(flow: FlowEntity, active: ActiveSession, record: IdentityRecord, password: string): Promise<FlowOutcome> {
    if (!this.sessions.isPrivileged(active.session)) return this.refreshRequired(flow);
    const traits = record.identity.traits;
    if (password === '')
      return this.showForm(flow, record, traits, { nodes: { password: UiMessages.validationRequired('password') } }, 'password');
    const violation = await this.policy.check(password, this.describeCurrent(record)?.identifiers ?? []);
    if (violation !== undefined) return this.showForm(flow, record, traits, { nodes: { password: violation.message } }, 'password');
    await this.identities.updatePassword(record.identity.id, password);
    return this.saved(flow, record, 'password');
  }

  /** State `success` with "Your changes have been saved!": API 200 `{flow, identity}`; browser 302 to `return_to` or the UI. */
  private async saved(flow: FlowEntity, record: IdentityRecord, method: string): Promise<FlowOutcome> {
    const schema = this.identities.schemaDocument(record.identity.schemaId);
    const ui = this.flows.form(flow, settingsNodes(schema, record.identity.traits), [UiMessages.settingsSaved()]);
    const saved = await this.flows.save(flow, { state: SUCCESS, active: method, ui });
    const identity = this.sessions.identityOnWire(record);
    const flowResponse = toFlowResponse(saved, identity);
    return {
      kind: 'completed',
      type: saved.type,
      apiBody: { flow: flowResponse, identity },
      spaBody: flowResponse,
      location: saved.returnTo ?? this.flows.uiUrl(saved),
    };
  }

  /** The session is too old for this change: API 403; browser 302 to log in again, coming back to this flow. */
  private refreshRequired(flow: FlowEntity): FlowOutcome {
    const loginUrl = this.loginUrl(true, this.flows.uiUrl(flow));
    return { kind: 'refused', type: flow.type, error: SelfServiceError.refreshRequired(loginUrl), location: loginUrl };
  }

  private async showForm(
    flow: FlowEntity,
    record: IdentityRecord,
    traits: unknown,
    errors: FormErrors,
    method: string | null,
  ): Promise<FlowOutcome> {
    const schema = this.identities.schemaDocument(record.identity.schemaId);
    const { nodes, orphans } = attachNodeErrors(settingsNodes(schema, traits), errors.nodes);
    const ui = this.flows.form(flow, nodes, [...(errors.form ?? []), ...orphans]);
    const saved = await this.flows.save(flow, { state: SHOW_FORM, ui, ...(method === null ? {} : { active: method }) });
    return this.flows.shown(saved, toFlowResponse(saved, this.sessions.identityOnWire(record)), 400);
  }

  private start(
    type: FlowType,
    request: SelfServiceRequest,
    record: IdentityRecord,
    options: { returnTo: string | null; messages?: readonly UiText[] },
  ): Promise<FlowEntity> {
    const nodes = settingsNodes(this.identities.schemaDocument(record.identity.schemaId), record.identity.traits);
    return this.flows.start(
      {
        kind: 'settings',
        type,
        nodes,
        state: SHOW_FORM,
        identityId: record.identity.id,
        returnTo: options.returnTo,
        messages: options.messages ?? [],
      },
      request,
    );
  }

  private describe(schemaId: string, traits: Record<string, unknown>): TraitsDescription | { problem: TraitsProblem } {
    try {
      return this.identities.describeTraits(schemaId, traits);
    } catch (error) {
      const problem = traitsProblemOf(error);
      if (problem === undefined) throw error;
      return { problem };
    }
  }

  /** The current traits' identifiers and addresses; undefined when they no longer pass their schema. */
  private describeCurrent(record: IdentityRecord): TraitsDescription | undefined {
    const current = this.describe(record.identity.schemaId, record.identity.traits as Record<string, unknown>);
    return 'problem' in current ? undefined : current;
  }

  private loginUrl(refresh: boolean, returnTo: string): string {
    const url = new URL(`${this.config.urls.issuer}${FLOW_KINDS.login.path}/browser`);
    if (refresh) url.searchParams.set('refresh', 'true');
    url.searchParams.set('return_to', returnTo);
    return url.href;
  }
}

/** Login identifiers and addresses are protected: changing them needs a privileged session (Kratos). */
function changesProtectedTraits(current: TraitsDescription | undefined, next: TraitsDescription): boolean {
  if (current === undefined) return true;
  const same = (a: readonly string[], b: readonly string[]): boolean =>
    a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
  return !same(current.identifiers, next.identifiers) || !same(current.addresses, next.addresses);
}

function problemErrors(problem: TraitsProblem): FormErrors {
  return problem.node === undefined ? { form: [problem.message] } : { nodes: { [problem.node]: problem.message } };
}
