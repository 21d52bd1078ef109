import { describe, expect, it } from 'vitest';
import { recoveryLinkLifetimeMs } from './recovery-link-lifetime.js';

describe('recoveryLinkLifetimeMs', () => {
  it.each([
    [undefined, 3_600_000],
    ['', 3_600_000],
    ['1h', 3_600_000],
    ['30m', 1_800_000],
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['90s', 90_000],
    ['1500ms', 1500],
    ['720h', 2_592_000_000],
  ])('reads %j as %d ms', (input, expected) => {
    expect(recoveryLinkLifetimeMs(input)).toBe(expected);
  });

  it.each(['1', 'h', '-1h', '+1h', '1 h', '1d', '0s', '999ms', '721h', '1h '])('refuses %j naming expires_in', (input) => {
    expect(() => recoveryLinkLifetimeMs(input)).toThrow(
      expect.objectContaining({ code: 'invalid_request', details: { field: 'expires_in' } }),
    );
  });
});
