import { Injectable } from '@nestjs/common';
import type { UrlsConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { IdentitiesService, type TraitsDescription, type IdentityRecord } from '../../identities/index.js';
import type { FlowEntity } from '../flows/entities/flow.entity.js';
import { FLOW_KINDS } from '../flows/flow-kind.js';
import { toFlowResponse } from '../flows/flow.mapper.js';
import type { FlowOutcome } from '../flows/flow-outcome.js';
import { FlowsService } from '../flows/flows.service.js';
import { attachNodeErrors, type FormErrors } from '../flows/form-errors.js';
import { traitsProblemOf, type TraitsProblem } from '../flows/trait-errors.js';
import { SelfServiceError } from '../self-service.errors.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { UiMessages } from '../ui/ui-messages.js';
import { settingsNodes } from './settings-form.js';

/** Settings states (Kratos v0.6 `settings/state.go`). */
export const SHOW_FORM = 'show_form';
const SUCCESS = 'success';

/** What the settings flow and its methods (`profile`, `password`) answer alike, and how they read traits. */
@Injectable()
export class SettingsAnswers {
  constructor(
    @InjectConfig('urls') private readonly urls: UrlsConfig,
    private readonly flows: FlowsService,
    private readonly sessions: SessionsService,
    private readonly identities: IdentitiesService,
  ) {}

  /** The form again with `traits` and the errors (state `show_form`): API 400 with the flow, browser 302 to the UI. */
  async showForm(
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

  /** State `success` with "Your changes have been saved!": API 200 `{flow, identity}`; browser 302 to `return_to` or the UI. */
  async saved(flow: FlowEntity, record: IdentityRecord, method: string): Promise<FlowOutcome> {
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
  refreshRequired(flow: FlowEntity): FlowOutcome {
    const loginUrl = this.loginUrl(true, this.flows.uiUrl(flow));
    return { kind: 'refused', type: flow.type, error: SelfServiceError.refreshRequired(loginUrl), location: loginUrl };
  }

  describe(schemaId: string, traits: Record<string, unknown>): TraitsDescription | { problem: TraitsProblem } {
    try {
      return this.identities.describeTraits(schemaId, traits);
    } catch (error) {
      const problem = traitsProblemOf(error);
      if (problem === undefined) throw error;
      return { problem };
    }
  }

  /** The current traits' identifiers and addresses; undefined when they no longer pass their schema. */
  describeCurrent(record: IdentityRecord): TraitsDescription | undefined {
    const current = this.describe(record.identity.schemaId, record.identity.traits as Record<string, unknown>);
    return 'problem' in current ? undefined : current;
  }

  /** The browser login, with `refresh=true` when asked, coming back to `returnTo`. */
  loginUrl(refresh: boolean, returnTo: string): string {
    const url = new URL(`${this.urls.issuer}${FLOW_KINDS.login.path}/browser`);
    if (refresh) url.searchParams.set('refresh', 'true');
    url.searchParams.set('return_to', returnTo);
    return url.href;
  }
}

export function problemErrors(problem: TraitsProblem): FormErrors {
  return problem.node === undefined ? { form: [problem.message] } : { nodes: { [problem.node]: problem.message } };
}
