import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.loader.js';
import { keyOfError } from '../../test/support/config.js';

describe('loadConfig: decisions', () => {
  it('defaults: no pipeline settings, json fallback, no trusted proxy, loopback and private peers, 30 s proxy timeout', () => {
    const { decisions } = loadConfig({}, '1');
    expect(decisions.pipeline).toEqual({ authenticators: {}, authorizers: {}, mutators: {}, errors: {}, errorFallback: ['json'] });
    expect(decisions.trustedProxies).toEqual([]);
    expect(decisions.allowedPeers).toContain('127.0.0.0/8');
    expect(decisions.allowedPeers).toContain('10.0.0.0/8');
    expect(decisions.proxyTimeoutMs).toBe(30_000);
  });

  it('reads Oathkeeper-shaped DECISIONS_PIPELINE, with errors.handlers and errors.fallback', () => {
    const pipeline = {
      authorizers: { remote_json: { enabled: true, config: { remote: 'https://authz.example/' } } },
      errors: { fallback: ['json', 'redirect'], handlers: { redirect: { config: { to: 'https://login.example/' } } } },
    };
    const { decisions } = loadConfig({ DECISIONS_PIPELINE: JSON.stringify(pipeline) }, '1');
    expect(decisions.pipeline.authorizers).toEqual(pipeline.authorizers);
    expect(decisions.pipeline.errors).toEqual({ redirect: { config: { to: 'https://login.example/' } } });
    expect(decisions.pipeline.errorFallback).toEqual(['json', 'redirect']);
  });

  it('takes DECISIONS_PIPELINE as a mapping in the config file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'latchkey-config-'));
    try {
      const file = join(dir, 'latchkey.yaml');
      await writeFile(file, 'DECISIONS_PIPELINE:\n  mutators:\n    id_token:\n      config:\n        ttl: 5m\n');
      expect(loadConfig({ CONFIG_FILE: file }, '1').decisions.pipeline.mutators).toEqual({ id_token: { config: { ttl: '5m' } } });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    { DECISIONS_PIPELINE: 'not json' },
    { DECISIONS_PIPELINE: '[]' },
    { DECISIONS_PIPELINE: '{"rules": {}}' },
    { DECISIONS_PIPELINE: '{"mutators": {"header": {"enabled": "yes"}}}' },
    { DECISIONS_PIPELINE: '{"mutators": {"header": {"config": []}}}' },
    { DECISIONS_PIPELINE: '{"mutators": {"header": {"enable": true}}}' },
    { DECISIONS_PIPELINE: '{"errors": {"fallback": "json"}}' },
  ])('refuses a bad DECISIONS_PIPELINE: %j', (env) => {
    expect(keyOfError(env)).toBe('DECISIONS_PIPELINE');
  });

  it.each(['10.0.0.0/33', 'not-an-ip', '::1/129', '10.0.0.0/8/1'])('refuses the CIDR %s', (cidr) => {
    expect(keyOfError({ DECISIONS_TRUSTED_PROXIES: cidr })).toBe('DECISIONS_TRUSTED_PROXIES');
    expect(keyOfError({ DECISIONS_ALLOWED_PEERS: `127.0.0.1,${cidr}` })).toBe('DECISIONS_ALLOWED_PEERS');
  });

  it('takes addresses and ranges of both families', () => {
    expect(loadConfig({ DECISIONS_TRUSTED_PROXIES: '10.1.2.3, fd00::/8' }, '1').decisions.trustedProxies).toEqual([
      '10.1.2.3/32',
      'fd00::/8',
    ]);
  });
});
