import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, queryDatabase } from '../../support/database.js';
import { HttpClient } from '../../support/http.js';
import { ensureBuilt, runService, serviceEnv, tempDataDir } from '../../support/process.js';

const ADMIN_TOKEN = 'lk_admin_kill_test_0123456789abcdef';
const WORKERS = 6;

/**
 * The service SIGKILLed while it writes identities with passwords: after a restart every write it
 * acknowledged is there, and no write was left half done (an identity without its credential).
 */
describe('the service killed mid-write', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let databaseUrl: string;

  beforeAll(async () => {
    ensureBuilt();
    dataDir = await tempDataDir();
    databaseUrl = await freshDatabase();
    env = await serviceEnv(
      { dataDir, databaseUrl, adminToken: ADMIN_TOKEN },
      {
        // Identities are created several at a time; the one-create-at-a-time inflight rule is not under test.
        RATE_LIMIT_INFLIGHT: 'off',
      },
    );
  }, 180_000);

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write and no partial one', async () => {
    const first = runService(env);
    await first.waitForOutput(/is ready/, 60_000);
    const admin = new HttpClient(`http://127.0.0.1:${env['ADMIN_PORT']}`, ADMIN_TOKEN);
    const acknowledged: string[] = [];
    let writing = true;
    const worker = async (index: number): Promise<void> => {
      for (let round = 0; writing; round += 1) {
        const body = {
          traits: { email: `kill-${index}-${round}@example.com` },
          credentials: { password: { config: { password: 'correct horse battery staple' } } },
        };
        try {
          const response = await admin.post<{ id: string }>('/identities', { json: body });
          if (response.status === 201) acknowledged.push(response.body.id);
        } catch {
          // The connection died with the process: not acknowledged.
          return;
        }
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, index) => worker(index)));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    first.child.kill('SIGKILL');
    await first.exited;
    writing = false;
    await load;
    expect(acknowledged.length).toBeGreaterThan(0);

    const second = runService(env);
    try {
      await second.waitForOutput(/is ready/, 60_000);
      for (const id of acknowledged) expect((await admin.get(`/identities/${id}`)).status).toBe(200);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
    const [orphans] = await queryDatabase<{ count: string }>(
      databaseUrl,
      `SELECT count(*) FROM identities i WHERE NOT EXISTS (SELECT 1 FROM identity_credentials c WHERE c.identity_id = i.id)`,
    );
    expect(Number(orphans!.count)).toBe(0);
  }, 120_000);
});
