import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/database.js';
import { HttpClient } from '../support/http.js';
import { ensureBuilt, freePort, runService, tempDataDir, type ServiceProcess } from '../support/process.js';

/**
 * The linear-time guarantee holds from boot: on a freshly started service whose first pattern is a
 * glob, a pathological glob against a long subject answers at once. (A RegExp compiled before V8's
 * linear-time fallback is switched on keeps backtracking; before the fix, this request held a core for
 * far longer than the test's timeout.) Nothing is timed here: the answer has to come at all.
 */
describe('ReDoS on a fresh process', () => {
  const token = 'lk_admin_redos_test_0123456789abcdef';
  let dataDir: string;
  let service: ServiceProcess;
  let admin: HttpClient;

  beforeAll(async () => {
    ensureBuilt();
    dataDir = await tempDataDir();
    const adminPort = await freePort();
    service = runService({
      DATA_DIR: dataDir,
      DATABASE_URL: await freshDatabase(),
      SECRETS_SYSTEM: 'redos-test-secret-0123456789',
      ADMIN_TOKENS: token,
      PUBLIC_PORT: String(await freePort()),
      ADMIN_PORT: String(adminPort),
      LOG_LEVEL: 'warn',
    });
    await service.waitForOutput(/is ready/, 60_000);
    admin = new HttpClient(`http://127.0.0.1:${adminPort}`, token);
  }, 180_000);

  afterAll(async () => {
    // A process stuck in a regular expression never reads SIGTERM.
    if (service !== undefined && service.child.exitCode === null) service.child.kill('SIGKILL');
    await service?.exited;
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a glob policy *a*a*a*a*a*a*a*a*b against a 1,024-character subject of a answers', async () => {
    const put = await admin.put('/engines/acp/service/glob/policies', {
      json: { id: 'redos', subjects: ['*a*a*a*a*a*a*a*a*b'], resources: ['r'], actions: ['read'], effect: 'allow' },
    });
    expect(put.status, put.text).toBe(200);
    const answer = await admin.post('/engines/acp/service/glob/allowed', {
      json: { subject: 'a'.repeat(1024), resource: 'r', action: 'read' },
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ allowed: false });
    const matching = await admin.post('/engines/acp/service/glob/allowed', {
      json: { subject: `${'a'.repeat(1023)}b`, resource: 'r', action: 'read' },
    });
    expect(matching.status).toBe(200);
    expect(matching.body).toEqual({ allowed: true });
  }, 60_000);
});
