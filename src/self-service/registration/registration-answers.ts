import type { IdentitiesService } from '../../identities/index.js';
import type { FlowEntity } from '../flows/entities/flow.entity.js';
import { toFlowResponse } from '../flows/flow.mapper.js';
import type { FlowOutcome } from '../flows/flow-outcome.js';
import type { FlowsService } from '../flows/flows.service.js';
import { attachNodeErrors, type FormErrors } from '../flows/form-errors.js';
import type { UiText } from '../ui/ui-container.js';
import { registrationNodes } from './registration-form.js';

/** The method of registration forms (the only one so far); recorded as the flow's `active` method. */
export const PASSWORD_METHOD = 'password';

/** The registration form again with the submitted traits and the errors: API 400, browser 302 to the UI. */
export async function showRegistrationForm(
  flows: FlowsService,
  identities: IdentitiesService,
  flow: FlowEntity,
  traits: unknown,
  errors: FormErrors,
): Promise<FlowOutcome> {
  const { nodes, orphans } = attachNodeErrors(registrationNodes(identities.schemaDocument(undefined), traits), errors.nodes);
  const saved = await flows.save(flow, { active: PASSWORD_METHOD, ui: flows.form(flow, nodes, [...(errors.form ?? []), ...orphans]) });
  return flows.shown(saved, toFlowResponse(saved), 400);
}

/** The submitted `traits` object ({} when absent or not an object). */
export function submittedTraits(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const traits = body['traits'];
  return traits !== null && typeof traits === 'object' && !Array.isArray(traits) ? (traits as Record<string, unknown>) : {};
}

export function problemErrors(problem: { readonly node: string | undefined; readonly message: UiText }): FormErrors {
  return problem.node === undefined ? { form: [problem.message] } : { nodes: { [problem.node]: problem.message } };
}
