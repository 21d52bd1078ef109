import { describe, expect, it } from 'vitest';
import type { OutboundAnswer } from './decision-ports.js';
import { HandlerConfigError } from './handler-config.js';
import { retryPolicy, withRetries } from './retry.js';

const answer = (status: number): OutboundAnswer => ({ status, body: Buffer.alloc(0) });

/** Answers with the given statuses in turn (an Error is thrown instead), counting the calls. */
function sequence(...steps: (number | Error)[]): { send: () => Promise<OutboundAnswer>; calls: () => number } {
  let calls = 0;
  return {
    send: () => {
      const step = steps[Math.min(calls, steps.length - 1)]!;
      calls += 1;
      return step instanceof Error ? Promise.reject(step) : Promise.resolve(answer(step));
    },
    calls: () => calls,
  };
}

describe('retry', () => {
  const quick = retryPolicy({ max_delay: '1ms', give_up_after: '1s' }, 'retry');

  it('reads Go durations below a second, and refuses what is not one or is over a minute', () => {
    expect(quick).toEqual({ maxDelayMs: 1, giveUpAfterMs: 1000 });
    for (const config of [
      { max_delay: 'soon', give_up_after: '1s' },
      { max_delay: '100ms', give_up_after: '2m' },
      { max_delay: '0ms', give_up_after: '1s' },
    ]) {
      expect(() => retryPolicy(config, 'retry')).toThrow(HandlerConfigError);
    }
  });

  it('tries again after no answer, 429 and 5xx other than 501, and returns the first other answer', async () => {
    const flaky = sequence(new Error('refused'), 503, 429, 502, 200);
    expect((await withRetries(quick, flaky.send)).status).toBe(200);
    expect(flaky.calls()).toBe(5);
    for (const status of [200, 401, 404, 501]) {
      const once = sequence(status, 200);
      expect((await withRetries(quick, once.send)).status).toBe(status);
      expect(once.calls()).toBe(1);
    }
  });

  it('gives up after give_up_after with the last answer, or the last error', async () => {
    const soon = retryPolicy({ max_delay: '5ms', give_up_after: '30ms' }, 'retry');
    const down = sequence(503);
    expect((await withRetries(soon, down.send)).status).toBe(503);
    expect(down.calls()).toBeGreaterThan(1);
    const refused = new Error('refused');
    await expect(withRetries(soon, sequence(refused).send)).rejects.toBe(refused);
  });
});
