import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../common/crypto/digest.js';
import { ConfigError } from './config.error.js';
import { loadConfig } from './config.loader.js';
import { provisionSecrets } from './secrets.provisioner.js';

const dataDir = (): string => mkdtempSync(join(tmpdir(), 'latchkey-secrets-'));

describe('provisionSecrets', () => {
  it('generates a system secret once, stores it with mode 0600 and reuses it', async () => {
    const dir = dataDir();
    const first = await provisionSecrets(loadConfig({ DATA_DIR: dir }, '1'));
    const second = await provisionSecrets(loadConfig({ DATA_DIR: dir }, '1'));
    expect(first.config.secrets.system).toHaveLength(1);
    expect(first.config.secrets.system[0]!.length).toBeGreaterThanOrEqual(32);
    expect(second.config.secrets.system).toEqual(first.config.secrets.system);
    expect(statSync(join(dir, 'system-secret')).mode & 0o777).toBe(0o600);
  });

  it('generates an admin token on first start, stores only its digest, and does not show it again', async () => {
    const dir = dataDir();
    const first = await provisionSecrets(loadConfig({ DATA_DIR: dir }, '1'));
    expect(first.generatedAdminToken).toMatch(/^lk_admin_[A-Za-z0-9_-]{43}$/);
    const stored = readFileSync(join(dir, 'admin-token.sha256'), 'utf8');
    expect(stored).not.toContain(first.generatedAdminToken!);
    expect(stored.trim()).toBe(sha256Hex(first.generatedAdminToken!));
    expect(statSync(join(dir, 'admin-token.sha256')).mode & 0o777).toBe(0o600);
    const second = await provisionSecrets(loadConfig({ DATA_DIR: dir }, '1'));
    expect(second.generatedAdminToken).toBeUndefined();
    expect(second.config.admin.tokenDigests).toEqual(first.config.admin.tokenDigests);
  });

  it('uses configured secrets and tokens as given, generating nothing', async () => {
    const dir = dataDir();
    const result = await provisionSecrets(
      loadConfig({ DATA_DIR: dir, SECRETS_SYSTEM: 'configured-secret-0123456789', ADMIN_TOKENS: 'configured-token-0123456789' }, '1'),
    );
    expect(result.config.secrets.system).toEqual(['configured-secret-0123456789']);
    expect(result.config.admin.tokenDigests).toEqual([sha256Hex('configured-token-0123456789')]);
    expect(result.generatedAdminToken).toBeUndefined();
  });

  it('refuses to start in production without SECRETS_SYSTEM', async () => {
    await expect(provisionSecrets(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production' }, '1'))).rejects.toSatisfy(
      (error: unknown) => error instanceof ConfigError && error.key === 'SECRETS_SYSTEM',
    );
  });

  it('warns when the admin API is left open', async () => {
    const result = await provisionSecrets(
      loadConfig({ DATA_DIR: dataDir(), ADMIN_AUTH: 'off', SECRETS_SYSTEM: 'configured-secret-0123456789' }, '1'),
    );
    expect(result.warnings.some((warning) => warning.startsWith('ADMIN_AUTH=off'))).toBe(true);
    expect(result.generatedAdminToken).toBeUndefined();
  });
});
