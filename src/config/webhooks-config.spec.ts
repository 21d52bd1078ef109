import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.loader.js';
import { keyOfError } from '../../test/support/config.js';

describe('loadConfig: directory-sync webhooks', () => {
  it('defaults: 5 min tolerance, 24 h grace, 30 days of log, hourly janitor, no mapping, verified addresses, 1 MiB, 4 at once', () => {
    expect(loadConfig({}, '1').webhooks).toEqual({
      toleranceSeconds: 300,
      secretGraceSeconds: 86_400,
      eventRetentionSeconds: 30 * 86_400,
      janitorIntervalSeconds: 3600,
      traitsMapping: {},
      verifyAddresses: true,
      bodyLimitBytes: 1024 * 1024,
      concurrency: 4,
    });
  });

  it('reads every key', () => {
    const webhooks = loadConfig(
      {
        WEBHOOKS_TOLERANCE: '3m',
        WEBHOOKS_SECRET_GRACE: '0',
        WEBHOOKS_EVENT_RETENTION: '168h',
        WEBHOOKS_JANITOR_INTERVAL: '0',
        WEBHOOKS_TRAITS_MAPPING: '{"employee": {"email": "email", "name.given": "first_name", "dept": "raw.department"}}',
        WEBHOOKS_VERIFY_ADDRESSES: 'false',
        WEBHOOKS_BODY_LIMIT: '256kb',
        WEBHOOKS_CONCURRENCY: '2',
      },
      '1',
    ).webhooks;
    expect(webhooks).toEqual({
      toleranceSeconds: 180,
      secretGraceSeconds: 0,
      eventRetentionSeconds: 168 * 3600,
      janitorIntervalSeconds: 0,
      traitsMapping: { employee: { email: 'email', 'name.given': 'first_name', dept: 'raw.department' } },
      verifyAddresses: false,
      bodyLimitBytes: 256 * 1024,
      concurrency: 2,
    });
  });

  it.each([
    ['WEBHOOKS_TOLERANCE', '0'],
    ['WEBHOOKS_TOLERANCE', 'five minutes'],
    ['WEBHOOKS_EVENT_RETENTION', '0'],
    ['WEBHOOKS_TRAITS_MAPPING', 'not json'],
    ['WEBHOOKS_TRAITS_MAPPING', '[]'],
    ['WEBHOOKS_TRAITS_MAPPING', '{"employee": "email"}'],
    ['WEBHOOKS_TRAITS_MAPPING', '{"employee": {"email": 1}}'],
    ['WEBHOOKS_TRAITS_MAPPING', '{"employee": {"bad path": "email"}}'],
    ['WEBHOOKS_TRAITS_MAPPING', '{"employee": {"email": "raw..x"}}'],
    ['WEBHOOKS_VERIFY_ADDRESSES', 'maybe'],
    ['WEBHOOKS_BODY_LIMIT', '10'],
    ['WEBHOOKS_CONCURRENCY', '0'],
    ['WEBHOOKS_CONCURRENCY', '1000'],
  ])('refuses %s=%s naming the key', (key, value) => {
    expect(keyOfError({ [key]: value })).toBe(key);
  });
});
