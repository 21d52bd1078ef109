import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.loader.js';
import { keyOfError } from '../../test/support/config.js';

describe('rate-limit settings', () => {
  it('default to no project limits, the production environment and the project "default"', () => {
    expect(loadConfig({}, '1.0.0').rateLimit).toEqual({
      plan: 'off',
      environment: 'production',
      project: 'default',
      overrides: [],
      trustedIps: [],
      inflight: 'on',
    });
  });

  it('read the legacy plan names as the plans whose limits they share', () => {
    expect(loadConfig({ RATE_LIMIT_PLAN: 'essential' }, '1.0.0').rateLimit.plan).toBe('production');
    expect(loadConfig({ RATE_LIMIT_PLAN: 'scale' }, '1.0.0').rateLimit.plan).toBe('growth');
  });

  it('read overrides as JSON or YAML', () => {
    const expected = [{ bucket: 'POST /admin/recovery/*', burstRps: 50, sustainedRpm: 3000 }];
    const json = '[{"bucket": "POST /admin/recovery/*", "burst_rps": 50, "sustained_rpm": 3000}]';
    const yaml = '- bucket: POST /admin/recovery/*\n  burst_rps: 50\n  sustained_rpm: 3000\n';
    expect(loadConfig({ RATE_LIMIT_OVERRIDES: json }, '1.0.0').rateLimit.overrides).toEqual(expected);
    expect(loadConfig({ RATE_LIMIT_OVERRIDES: yaml }, '1.0.0').rateLimit.overrides).toEqual(expected);
  });

  it('read overrides and trusted addresses from a config file’s lists', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'latchkey-rate-limit-')), 'latchkey.yaml');
    writeFileSync(
      file,
      'RATE_LIMIT_PLAN: scale\nRATE_LIMIT_OVERRIDES:\n  - bucket: "*"\n    burst_rps: 900\n    sustained_rpm: 20000\nRATE_LIMIT_TRUSTED_IPS:\n  - 10.0.0.0/8\n',
    );
    expect(loadConfig({ CONFIG_FILE: file }, '1.0.0').rateLimit).toMatchObject({
      plan: 'growth',
      overrides: [{ bucket: '*', burstRps: 900, sustainedRpm: 20000 }],
      trustedIps: ['10.0.0.0/8'],
    });
  });

  it('normalise trusted addresses to CIDR blocks', () => {
    expect(loadConfig({ RATE_LIMIT_TRUSTED_IPS: '10.0.0.0/8, 192.0.2.7, 2001:db8::/32' }, '1.0.0').rateLimit.trustedIps).toEqual([
      '10.0.0.0/8',
      '192.0.2.7/32',
      '2001:db8::/32',
    ]);
  });

  it.each([
    ['RATE_LIMIT_PLAN', 'free'],
    ['RATE_LIMIT_PLAN', 'Enterprise'],
    ['RATE_LIMIT_ENVIRONMENT', 'prod'],
    ['RATE_LIMIT_PROJECT', 'two words'],
    ['RATE_LIMIT_PROJECT', 'x'.repeat(65)],
    ['RATE_LIMIT_OVERRIDES', '{"bucket": "*"}'],
    ['RATE_LIMIT_OVERRIDES', '[{"bucket": "*", "burst_rps": 0, "sustained_rpm": 10}]'],
    ['RATE_LIMIT_OVERRIDES', '[{"bucket": "*", "burst_rps": 1.5, "sustained_rpm": 10}]'],
    ['RATE_LIMIT_OVERRIDES', '[{"bucket": "*", "burst_rps": "5", "sustained_rpm": 10}]'],
    ['RATE_LIMIT_OVERRIDES', '[{"bucket": "sessions/whoami", "burst_rps": 5, "sustained_rpm": 10}]'],
    ['RATE_LIMIT_OVERRIDES', '[{"bucket": "get /x", "burst_rps": 5, "sustained_rpm": 10}]'],
    ['RATE_LIMIT_OVERRIDES', '[{"bucket": "/a/**/b", "burst_rps": 5, "sustained_rpm": 10}]'],
    ['RATE_LIMIT_OVERRIDES', '[{"bucket": "*", "burst_rps": 5, "sustained_rpm": 10, "extra": 1}]'],
    [
      'RATE_LIMIT_OVERRIDES',
      '[{"bucket": "*", "burst_rps": 5, "sustained_rpm": 10}, {"bucket": "*", "burst_rps": 6, "sustained_rpm": 10}]',
    ],
    ['RATE_LIMIT_TRUSTED_IPS', '10.0.0.0/33'],
    ['RATE_LIMIT_TRUSTED_IPS', 'example.com'],
    ['RATE_LIMIT_TRUSTED_IPS', '10.0.0.0/8/8'],
    ['RATE_LIMIT_INFLIGHT', 'enforced'],
  ])('refuse %s=%s, naming the key', (key, value) => {
    expect(keyOfError({ [key]: value })).toBe(key);
  });
});
