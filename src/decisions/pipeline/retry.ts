import { setTimeout as sleep } from 'node:timers/promises';
import type { OutboundAnswer } from './decision-ports.js';
import { goDuration, HandlerConfigError } from './handler-config.js';

/** A handler's `retry` member, as Oathkeeper writes it (Go durations). */
export interface RetryConfig {
  readonly max_delay: string;
  readonly give_up_after: string;
}

export const RETRY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { max_delay: { type: 'string', default: '100ms' }, give_up_after: { type: 'string', default: '1s' } },
  default: {},
} as const;

export interface RetryPolicy {
  readonly maxDelayMs: number;
  readonly giveUpAfterMs: number;
}

/** The first wait; each later one doubles, up to `max_delay`. */
const FIRST_DELAY_MS = 10;
/** Past a minute a decision would outlive any gateway's patience. */
const LONGEST_MS = 60_000;

export function retryPolicy(config: RetryConfig, path: string): RetryPolicy {
  const maxDelayMs = goDuration(config.max_delay, `${path}.max_delay`, 1);
  const giveUpAfterMs = goDuration(config.give_up_after, `${path}.give_up_after`, 1);
  if (maxDelayMs > LONGEST_MS) throw new HandlerConfigError(`${path}.max_delay`, 'must be at most 1m');
  if (giveUpAfterMs > LONGEST_MS) throw new HandlerConfigError(`${path}.give_up_after`, 'must be at most 1m');
  return { maxDelayMs, giveUpAfterMs };
}

/** What is worth another try: no answer at all, too many requests, or a server error other than 501. */
function worthRetrying(answer: OutboundAnswer): boolean {
  return answer.status === 429 || (answer.status >= 500 && answer.status !== 501);
}

/**
 * Sends until an answer is not worth retrying or the next wait would pass `give_up_after`, waiting
 * 10 ms, 20 ms, … (at most `max_delay`) between tries. Returns the last answer, or throws the last
 * transport error.
 */
export async function withRetries(policy: RetryPolicy, send: () => Promise<OutboundAnswer>): Promise<OutboundAnswer> {
  const started = Date.now();
  for (let delay = FIRST_DELAY_MS; ; delay = Math.min(delay * 2, policy.maxDelayMs)) {
    let answer: OutboundAnswer | undefined;
    let failure: unknown;
    try {
      answer = await send();
      if (!worthRetrying(answer)) return answer;
    } catch (error) {
      failure = error;
    }
    const wait = Math.min(delay, policy.maxDelayMs);
    if (Date.now() - started + wait > policy.giveUpAfterMs) {
      if (answer !== undefined) return answer;
      throw failure;
    }
    await sleep(wait);
  }
}
