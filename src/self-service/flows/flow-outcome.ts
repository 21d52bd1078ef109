import type { SelfServiceError } from '../self-service.errors.js';
import type { FlowType } from './flow-kind.js';

/**
 * What a self-service endpoint answers, decided by the flows without the transport; FlowResponder turns
 * it into the HTTP reply, and it alone tells API clients, single-page apps (`Accept: application/json`)
 * and navigating browsers apart. Errors are thrown (SelfServiceError) and answered by BrowserErrorFilter.
 * - `flow`: a flow to show (started, or its form again): API and SPA get `body` with `status`, a
 *   navigating browser a 302 to `uiUrl`;
 * - `restarted`: the submitted flow had expired and a fresh one replaces it: API flows get a 302 to
 *   `apiLocation` with `body` too (for clients that do not follow redirects), browsers a 302 to `uiUrl`;
 * - `completed`: the flow did its work: API flows get `apiBody`, SPAs `spaBody`, browsers a 302 to `location`;
 * - `refused`: API flows and SPAs get `error`, a navigating browser a 302 to `location` (where it can
 *   do what it must first, e.g. log in again);
 * - `json`: `body` with `status`, whoever asks; `redirect`: a 302 to `location`, whoever asks.
 * `onSent`, when given, is called once the answer has left (the response closed).
 */
export type FlowOutcome = (
  | { readonly kind: 'flow'; readonly type: FlowType; readonly status: 200 | 400; readonly body: unknown; readonly uiUrl: string }
  | { readonly kind: 'restarted'; readonly type: FlowType; readonly apiLocation: string; readonly body: unknown; readonly uiUrl: string }
  | { readonly kind: 'completed'; readonly type: FlowType; readonly apiBody: unknown; readonly spaBody: unknown; readonly location: string }
  | { readonly kind: 'refused'; readonly type: FlowType; readonly error: SelfServiceError; readonly location: string }
  | { readonly kind: 'json'; readonly status: number; readonly body: unknown }
  | { readonly kind: 'redirect'; readonly location: string }
) & { readonly onSent?: () => void };

export function redirect(location: string): FlowOutcome {
  return { kind: 'redirect', location };
}

export function json(status: number, body: unknown): FlowOutcome {
  return { kind: 'json', status, body };
}
