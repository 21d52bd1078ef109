import { describe, expect, it } from 'vitest';
import { MAX_RETRY_DELAY_MS, retryDelayMs } from './retry-delay.js';

describe('retryDelayMs', () => {
  it('waits the base delay after the first failure and doubles after each further one', () => {
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, 1000))).toEqual([1000, 2000, 4000, 8000]);
  });

  it('never waits longer than an hour', () => {
    expect(retryDelayMs(40, 5000)).toBe(MAX_RETRY_DELAY_MS);
  });
});
