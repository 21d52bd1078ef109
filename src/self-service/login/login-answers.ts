import { attachNodeErrors } from '../flows/form-errors.js';
import type { FlowEntity } from '../flows/entities/flow.entity.js';
import { toFlowResponse } from '../flows/flow.mapper.js';
import type { FlowOutcome } from '../flows/flow-outcome.js';
import type { FlowsService } from '../flows/flows.service.js';
import type { UiText } from '../ui/ui-container.js';
import { loginNodes } from './login-form.js';

/** The method of login forms (the only one so far); recorded as the flow's `active` method. */
export const PASSWORD_METHOD = 'password';

/** The login form again with errors: API 400 with the flow, browser 302 to the UI. The password is never re-filled. */
export async function showLoginForm(
  flows: FlowsService,
  flow: FlowEntity,
  identifier: string,
  fieldErrors: Readonly<Record<string, UiText>>,
  messages: readonly UiText[],
): Promise<FlowOutcome> {
  const { nodes, orphans } = attachNodeErrors(loginNodes(identifier), fieldErrors);
  const saved = await flows.save(flow, { active: PASSWORD_METHOD, ui: flows.form(flow, nodes, [...messages, ...orphans]) });
  return flows.shown(saved, toFlowResponse(saved), 400);
}
