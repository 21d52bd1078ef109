import { describe, expect, it } from 'vitest';
import type { RateLimitConfig } from '../config/app-config.js';
import { BucketPattern } from './bucket-pattern.js';
import { RateLimitPolicy } from './rate-limit-policy.js';
import { requestPathOf } from './request-path.js';

describe('BucketPattern', () => {
  it.each([
    ['*', 'DELETE', '/anything/at/all', true],
    ['/sessions/whoami', 'GET', '/sessions/whoami', true],
    ['/sessions/whoami', 'GET', '/sessions/whoami/', false],
    ['/sessions/whoami', 'GET', '/sessions/whoamix', false],
    ['GET /admin/identities', 'GET', '/admin/identities', true],
    ['GET /admin/identities', 'POST', '/admin/identities', false],
    ['GET /admin/identities', 'GET', '/admin/identities/abc', false],
    ['POST /admin/recovery/*', 'POST', '/admin/recovery/link', true],
    ['POST /admin/recovery/*', 'POST', '/admin/recovery', false],
    ['POST /admin/recovery/*', 'POST', '/admin/recovery/', false],
    ['POST /admin/recovery/*', 'POST', '/admin/recovery/link/more', false],
    ['/scim/**', 'GET', '/scim', true],
    ['/scim/**', 'GET', '/scim/v2/Users/1', true],
    ['/scim/**', 'GET', '/scimx', false],
    ['/admin/identities/*/credentials/*', 'DELETE', '/admin/identities/1/credentials/password', true],
    ['/admin/identities/*/credentials/*', 'DELETE', '/admin/identities/1/credentials', false],
  ])('%s matches %s %s: %s', (source, method, path, expected) => {
    expect(new BucketPattern(source).matches(method, path)).toBe(expected);
  });

  it('orders by specificity: literal paths, then fewer wildcards, then a named method, the catch-all last', () => {
    const sources = ['*', '/scim/**', 'POST /admin/recovery/*', '/admin/recovery/link', 'GET /admin/identities', '/admin/identities'];
    const sorted = sources.map((source) => new BucketPattern(source)).sort((a, b) => a.compareSpecificity(b));
    expect(sorted.map((pattern) => pattern.source)).toEqual([
      '/admin/recovery/link',
      'GET /admin/identities',
      '/admin/identities',
      'POST /admin/recovery/*',
      '/scim/**',
      '*',
    ]);
  });
});

describe('requestPathOf', () => {
  it('names admin paths under /admin whichever way they arrived', () => {
    expect(requestPathOf('admin', '/identities?page=2')).toEqual({ listener: 'admin', hosted: '/admin/identities', alias: '/identities' });
    expect(requestPathOf('admin', '/admin/identities')).toEqual({ listener: 'admin', hosted: '/admin/identities', alias: '/identities' });
    expect(requestPathOf('public', '/sessions/%77hoami')).toEqual({
      listener: 'public',
      hosted: '/sessions/whoami',
      alias: '/sessions/whoami',
    });
  });

  it('leaves health, metrics, the decision API and the proxy unlimited', () => {
    expect(requestPathOf('public', '/health/ready')).toBeUndefined();
    expect(requestPathOf('admin', '/admin/health/ready')).toBeUndefined();
    expect(requestPathOf('admin', '/metrics/prometheus')).toBeUndefined();
    expect(requestPathOf('admin', '/decisions/api/x')).toBeUndefined();
    expect(requestPathOf('admin', '/admin/decisions')).toBeUndefined();
    expect(requestPathOf('proxy', '/anything')).toBeUndefined();
    expect(requestPathOf('public', '/decisions')).toBeDefined();
  });
});

describe('RateLimitPolicy', () => {
  const config = (overrides: Partial<RateLimitConfig> = {}): RateLimitConfig => ({
    plan: 'developer',
    environment: 'production',
    project: 'p',
    overrides: [],
    trustedIps: [],
    inflight: 'on',
    ...overrides,
  });
  const bucketOf = (policy: RateLimitPolicy, method: string, listener: 'public' | 'admin', url: string, trusted = false): string =>
    policy.bucketFor(method, requestPathOf(listener, url)!, trusted).name;

  it('puts every request in exactly one bucket, the most specific', () => {
    const policy = new RateLimitPolicy(config());
    expect(bucketOf(policy, 'GET', 'admin', '/identities')).toBe('GET /admin/identities');
    expect(bucketOf(policy, 'PATCH', 'admin', '/admin/identities')).toBe('PATCH /admin/identities');
    expect(bucketOf(policy, 'PUT', 'admin', '/identities')).toBe('*');
    expect(bucketOf(policy, 'POST', 'admin', '/recovery/link')).toBe('POST /admin/recovery/*');
    expect(bucketOf(policy, 'POST', 'admin', '/oauth2/introspect')).toBe('/admin/oauth2/introspect');
    expect(bucketOf(policy, 'POST', 'public', '/oauth2/introspect')).toBe('*');
    expect(bucketOf(policy, 'GET', 'public', '/admin/identities')).toBe('*');
    expect(bucketOf(policy, 'GET', 'public', '/scim/v2/Users')).toBe('/scim/**');
  });

  it('gives trusted addresses the next plan up, with overrides never below it', () => {
    const policy = new RateLimitPolicy(
      config({ trustedIps: ['10.0.0.0/8', '2001:db8::/32'], overrides: [{ bucket: '*', burstRps: 7, sustainedRpm: 2000 }] }),
    );
    expect(policy.isTrusted('10.9.8.7')).toBe(true);
    expect(policy.isTrusted('::ffff:10.9.8.7')).toBe(true);
    expect(policy.isTrusted('2001:db8::1')).toBe(true);
    expect(policy.isTrusted('11.0.0.1')).toBe(false);
    const path = requestPathOf('public', '/x')!;
    expect(policy.bucketFor('GET', path, false)).toMatchObject({ burstRps: 7, sustainedRpm: 2000 });
    expect(policy.bucketFor('GET', path, true)).toMatchObject({ burstRps: 40, sustainedRpm: 2000 });
    expect(policy.bucketFor('GET', path, true).counterKey).not.toBe(policy.bucketFor('GET', path, false).counterKey);
  });

  it('is disabled with the plan off', () => {
    expect(new RateLimitPolicy(config({ plan: 'off' })).enabled).toBe(false);
  });
});
