import { SelfServiceError } from '../../self-service.errors.js';
import type { ActiveSession } from '../../sessions/sessions.service.js';
import type { FlowEntity } from '../entities/flow.entity.js';
import { redirect, type FlowOutcome } from '../flow-outcome.js';

/**
 * The session rule of flows for people without a session (login, registration, recovery): a submit
 * with one ends here. An API client gets 400 `session_already_available`; a browser is sent on to
 * `location` (where it would have gone after the flow). Undefined without a session: carry on.
 */
export function refuseSignedIn(
  kind: 'login' | 'registration' | 'recovery',
  flow: FlowEntity,
  active: ActiveSession | undefined,
  location: string,
): FlowOutcome | undefined {
  if (active === undefined) return undefined;
  if (flow.type === 'api') throw SelfServiceError.alreadyLoggedIn(kind);
  return redirect(location);
}

/** The session rule of settings: only the session of the flow's identity may submit it (403 otherwise). */
export function requireFlowOwner(flow: FlowEntity, active: ActiveSession): void {
  if (flow.identityId !== active.session.identityId) throw SelfServiceError.identityMismatch();
}
