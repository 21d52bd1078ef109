import { DecisionsError } from '../decisions.errors.js';
import type { OutboundAnswer } from './decision-ports.js';

/** A dependency's own Retry-After is passed on, but never past this: a gateway should come back soon. */
const LONGEST_RETRY_AFTER_SECONDS = 60;

/**
 * Whether an answer says the dependency cannot serve for now rather than judging the request: any 5xx
 * (a 502/503/504 from its own gateway, or a crash) and 429 (it is shedding load). The rule is fine and
 * a later try may succeed, which the caller's Retry-After tells the client.
 */
export function dependencyDown(answer: OutboundAnswer): boolean {
  return answer.status === 429 || (answer.status >= 500 && answer.status <= 599);
}

/**
 * The error for an answer outside a handler's contract (each handler maps its own allow and deny
 * statuses first): a dependency that is down is 503 with Retry-After, anything else the handler's
 * failure (500). `what` names the dependency, e.g. "The hydrator".
 */
export function unexpectedAnswer(answer: OutboundAnswer, what: string): DecisionsError {
  const message = `${what} answered ${answer.status}.`;
  if (dependencyDown(answer)) return DecisionsError.unreachable(message, new Error(message), retryAfterOf(answer));
  return DecisionsError.failed(message);
}

/** The dependency's Retry-After (seconds or an HTTP date) within 1 s – 60 s; undefined when absent or unreadable. */
function retryAfterOf(answer: OutboundAnswer): number | undefined {
  const raw = answer.headers?.['retry-after'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (value === undefined || value === '') return undefined;
  let seconds: number;
  if (/^\d+$/.test(value)) seconds = Number(value);
  else {
    const at = Date.parse(value);
    if (Number.isNaN(at)) return undefined;
    seconds = Math.ceil((at - Date.now()) / 1000);
  }
  return Math.min(Math.max(seconds, 1), LONGEST_RETRY_AFTER_SECONDS);
}
