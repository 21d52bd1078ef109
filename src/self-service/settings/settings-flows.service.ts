import { Injectable } from '@nestjs/common';
import type { UrlsConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { IdentitiesService, type IdentityRecord } from '../../identities/index.js';
import { CsrfProtection } from '../csrf/csrf-protection.js';
import type { FlowEntity } from '../flows/entities/flow.entity.js';
import { FLOW_KINDS, type FlowType } from '../flows/flow-kind.js';
import { methodOf, type FlowMethod } from '../flows/flow-method.js';
import { json, redirect, type FlowOutcome } from '../flows/flow-outcome.js';
import { toFlowResponse } from '../flows/flow.mapper.js';
import { FlowsService } from '../flows/flows.service.js';
import { markBrowserFlow, type SelfServiceRequest } from '../flows/self-service-request.js';
import { checkCsrf } from '../flows/steps/check-csrf.js';
import { requireFlowOwner } from '../flows/steps/enforce-session-rule.js';
import { restartIfExpired, type FlowRestarter } from '../flows/steps/restart-if-expired.js';
import { decodeSubmission } from '../forms/submission.js';
import { SessionsService } from '../sessions/sessions.service.js';
import type { UiText } from '../ui/ui-container.js';
import { UiMessages } from '../ui/ui-messages.js';
import { SettingsAnswers, SHOW_FORM } from './settings-answers.js';
import { settingsFields, settingsNodes } from './settings-form.js';
import { PasswordSettingsMethod, ProfileSettingsMethod, type SettingsState } from './settings-methods.js';

/**
 * The settings flow: methods `profile` (traits) and `password`, for the identity of
 * the session. Changing the password, or traits that are login identifiers or addresses, needs a
 * privileged session (authenticated within SELFSERVICE_PRIVILEGED_SESSION_MAX_AGE): otherwise API
 * clients get 403 `session_refresh_required` and browsers are sent to log in again with `refresh=true`.
 */
@Injectable()
export class SettingsFlows implements FlowRestarter<IdentityRecord> {
  private readonly methods: readonly FlowMethod<SettingsState>[];

  constructor(
    @InjectConfig('urls') private readonly urls: UrlsConfig,
    private readonly flows: FlowsService,
    private readonly csrf: CsrfProtection,
    private readonly sessions: SessionsService,
    private readonly identities: IdentitiesService,
    private readonly answers: SettingsAnswers,
    profile: ProfileSettingsMethod,
    password: PasswordSettingsMethod,
  ) {
    this.methods = [profile, password];
  }

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
    if (active === undefined) return redirect(this.answers.loginUrl(false, `${this.urls.issuer}${FLOW_KINDS.settings.path}/browser`));
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
    requireFlowOwner(flow, active);
    return json(200, toFlowResponse(flow, await this.sessions.identityResponse(active.session.identityId)));
  }

  /** `GET /self-service/settings/flows?id=` on the admin listener: the admin credential stands in for the session. */
  async fetchForAdmin(request: SelfServiceRequest): Promise<FlowOutcome> {
    const flow = await this.flows.fetch('settings', request.query['id']);
    return json(200, toFlowResponse(flow, await this.sessions.identityResponse(flow.identityId!)));
  }

  /** `POST /self-service/settings?flow=`: the prologue's steps, then the method the body names. */
  async submit(request: SelfServiceRequest): Promise<FlowOutcome> {
    const submitted = await this.flows.forSubmit('settings', request);
    const { flow } = submitted;
    const active = await this.sessions.require(request);
    requireFlowOwner(flow, active);
    const record = await this.identities.get(active.session.identityId);
    const restarted = restartIfExpired(this, request, submitted, record);
    if (restarted !== undefined) return restarted;
    const body = decodeSubmission(request, settingsFields(this.identities.schemaDocument(record.identity.schemaId)));
    checkCsrf(this.csrf, flow, request, body);
    const method = methodOf(this.methods, body);
    if (method === undefined) {
      return this.answers.showForm(flow, record, record.identity.traits, { form: [UiMessages.noSettingsStrategy()] }, null);
    }
    return method.submit(request, flow, body, { active, record });
  }

  /** A fresh settings flow for `record` replacing `replaced` (same type and `return_to`), carrying `message`. */
  async restart(request: SelfServiceRequest, replaced: FlowEntity, message: UiText, record: IdentityRecord): Promise<FlowOutcome> {
    const fresh = await this.start(replaced.type, request, record, { returnTo: replaced.returnTo, messages: [message] });
    return this.flows.restarted(fresh, toFlowResponse(fresh, this.sessions.identityOnWire(record)));
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
}
