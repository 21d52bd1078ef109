import type { Type } from '@nestjs/common';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLatchkey, type RunningLatchkey } from '../../src/bootstrap.js';
import { freshDatabase } from './database.js';
import { HttpClient } from './http.js';

export const TEST_ADMIN_TOKEN = 'lk_admin_test_token_0123456789abcdef';
export const TEST_SYSTEM_SECRET = 'test-system-secret-0123456789abcdef';

export interface TestApp {
  readonly running: RunningLatchkey;
  /** Public listener, no credentials. */
  readonly public: HttpClient;
  /** Admin listener with the admin token. */
  readonly admin: HttpClient;
  /** Admin listener without credentials. */
  readonly anonymousAdmin: HttpClient;
  readonly databaseUrl: string;
  readonly dataDir: string;
  close(): Promise<void>;
}

/**
 * Boots the real application in this process on ephemeral ports, against a fresh database on the test
 * PostgreSQL, with a known admin token. `env` overrides any setting.
 */
export async function bootApp(
  env: Record<string, string | undefined> = {},
  options: { databaseUrl?: string; extraModules?: Type[] } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'latchkey-test-data-'));
  const url = options.databaseUrl ?? (await freshDatabase());
  const running = await startLatchkey(
    {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PUBLIC_PORT: '0',
      ADMIN_PORT: '0',
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      SECRETS_SYSTEM: TEST_SYSTEM_SECRET,
      ADMIN_TOKENS: TEST_ADMIN_TOKEN,
      LOG_LEVEL: 'silent',
      // Caches are dropped every CACHE_MAX_STALENESS whatever else happens; tests that look at what a
      // cache holds must not see that drop at a random moment. The bound has its own test, which sets it.
      CACHE_MAX_STALENESS: '1h',
      ...env,
    },
    { quiet: true, extraModules: options.extraModules ?? [] },
  );
  return {
    running,
    public: new HttpClient(running.urls.public!),
    admin: new HttpClient(running.urls.admin!, TEST_ADMIN_TOKEN),
    anonymousAdmin: new HttpClient(running.urls.admin!),
    databaseUrl: url,
    dataDir,
    close: async () => {
      await running.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
