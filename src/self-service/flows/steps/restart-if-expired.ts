import type { FlowEntity } from '../entities/flow.entity.js';
import { FLOW_KINDS } from '../flow-kind.js';
import type { FlowOutcome } from '../flow-outcome.js';
import type { SubmittedFlow } from '../flows.service.js';
import type { SelfServiceRequest } from '../self-service-request.js';
import type { UiText } from '../../ui/ui-container.js';

/**
 * A flow kind that can replace a submitted flow by a fresh one of the same type carrying `message`;
 * `state` is what its prologue found before (settings: the identity).
 */
export interface FlowRestarter<S = undefined> {
  restart(request: SelfServiceRequest, replaced: FlowEntity, message: UiText, state: S): Promise<FlowOutcome>;
}

/**
 * A submit of an expired flow starts a fresh one carrying the kind's "expired" message (API: 302 to
 * the fresh flow with it as the body; browser: 302 to the UI). Undefined when the flow is current.
 */
export function restartIfExpired<S>(
  restarter: FlowRestarter<S>,
  request: SelfServiceRequest,
  { flow, expired }: SubmittedFlow,
  state: S,
): Promise<FlowOutcome> | undefined {
  return expired ? restarter.restart(request, flow, FLOW_KINDS[flow.kind].expiredMessage(flow.expiresAt), state) : undefined;
}
