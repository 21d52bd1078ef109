import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256Hex } from '../common/crypto/digest.js';
import type { AppConfig } from './app-config.js';
import { ConfigError } from './config.error.js';

export interface ProvisionedConfig {
  readonly config: AppConfig;
  /** Set only on the start that generated it: printed once, never stored in clear. */
  readonly generatedAdminToken: string | undefined;
  readonly warnings: readonly string[];
}

const SYSTEM_SECRET_FILE = 'system-secret';
const ADMIN_TOKEN_DIGEST_FILE = 'admin-token.sha256';

/**
 * Fills in what the operator left out: a system secret and an admin token, generated once and kept in
 * the data folder (mode 0600). In production a missing system secret is a boot error instead, since a
 * secret on local disk is lost with the container and differs between instances.
 */
export async function provisionSecrets(config: AppConfig): Promise<ProvisionedConfig> {
  const warnings: string[] = [];
  const dataDir = config.database.dataDir;
  let system = config.secrets.system;
  if (system.length === 0) {
    if (config.env === 'production') {
      throw new ConfigError('SECRETS_SYSTEM', 'is required when NODE_ENV=production');
    }
    system = [await readOrCreate(dataDir, SYSTEM_SECRET_FILE, () => randomBytes(32).toString('base64url'))];
    warnings.push(`SECRETS_SYSTEM is not set: using the generated secret in ${join(dataDir, SYSTEM_SECRET_FILE)}`);
  }

  let tokenDigests = config.admin.tokenDigests;
  let generatedAdminToken: string | undefined;
  if (config.admin.auth === 'off') {
    warnings.push('ADMIN_AUTH=off: the admin API accepts every caller; use this only on a trusted network');
  } else if (tokenDigests.length === 0) {
    const digest = await readOrCreate(dataDir, ADMIN_TOKEN_DIGEST_FILE, () => {
      generatedAdminToken = `lk_admin_${randomBytes(32).toString('base64url')}`;
      return sha256Hex(generatedAdminToken);
    });
    tokenDigests = [digest];
  }

  return {
    config: { ...config, secrets: { system }, admin: { ...config.admin, tokenDigests } },
    generatedAdminToken,
    warnings,
  };
}

async function readOrCreate(dir: string, name: string, create: () => string): Promise<string> {
  const path = join(dir, name);
  try {
    const existing = (await readFile(path, 'utf8')).trim();
    if ((await stat(path)).mode & 0o077) await chmod(path, 0o600);
    if (existing !== '') return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const value = create();
  await writeFile(path, `${value}\n`, { mode: 0o600, flag: 'w' });
  return value;
}
