import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, queryDatabase } from '../support/database.js';
import { HttpClient } from '../support/http.js';
import { ensureBuilt, freePort, runNpmStart, runService, tempDataDir } from '../support/process.js';
import { NODE_START_FLAGS } from '../../src/common/runtime/start-flags.js';

/**
 * The real entry point as a newcomer runs it: no DATABASE_URL (embedded PostgreSQL in DATA_DIR), no
 * secrets configured, signals for shutdown.
 */
describe('the service process with an embedded database', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let adminToken: string;

  beforeAll(async () => {
    ensureBuilt();
    dataDir = await tempDataDir();
    env = {
      DATA_DIR: dataDir,
      PUBLIC_PORT: String(await freePort()),
      ADMIN_PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_DELAY_MS: '1500',
    };
  }, 120_000);

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts on first run, prints both URLs and a one-time admin token, and serves both listeners', async () => {
    const service = runService(env);
    const started = Date.now();
    const [, token] = await service.waitForOutput(/Admin token[^\n]*\n\s+(lk_admin_[A-Za-z0-9_-]+)/, 60_000);
    console.log(`first start (initdb + migrations) ready after ${Date.now() - started} ms`);
    adminToken = token!;
    expect(service.stdout()).toContain(`public API: http://127.0.0.1:${env['PUBLIC_PORT']}`);
    expect(service.stdout()).toContain(`admin API:  http://127.0.0.1:${env['ADMIN_PORT']}`);
    expect(service.stdout()).toContain(`Sign in:    http://127.0.0.1:${env['PUBLIC_PORT']}/self-service/login/browser`);

    const admin = new HttpClient(`http://127.0.0.1:${env['ADMIN_PORT']}`, adminToken);
    const pub = new HttpClient(`http://127.0.0.1:${env['PUBLIC_PORT']}`);
    expect((await pub.get('/health/ready')).status).toBe(200);
    expect((await admin.get('/health/ready')).status).toBe(200);
    expect((await admin.get('/version')).status).toBe(200);
    // Where the banner says to sign in, the built-in login page is served.
    const signIn = await pub.get('/self-service/login/browser', { headers: { accept: 'text/html' } });
    expect(signIn.status).toBe(302);
    const location = new URL(signIn.headers.get('location')!);
    const loginPage = await pub.get(`${location.pathname}${location.search}`);
    expect(loginPage.status).toBe(200);
    expect(loginPage.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await admin.withToken(undefined).get('/version')).status).toBe(401);
    expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);

    // SIGTERM: readiness turns 503 at once while liveness and other routes keep answering (drain delay),
    // then the process exits 0 with the embedded database stopped.
    service.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ready = await pub.get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ errors: { server: expect.any(String) } });
    expect((await pub.get('/health/alive')).status).toBe(200);
    expect(await service.exited).toBe(0);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(service.stderr()).not.toContain(adminToken);
    // Started as npm start starts it: no start flag is missing, so no warning names one.
    for (const flag of NODE_START_FLAGS) expect(`${service.stdout()}${service.stderr()}`).not.toContain(flag);
  }, 120_000);

  it('restarts on the same data folder without a new token, keeping the old one valid; warns of missing start flags', async () => {
    // A launcher of one's own that leaves out the heap flags still starts, and says which it left out.
    const service = runService(env, undefined, []);
    const started = Date.now();
    await service.waitForOutput(/is ready/, 30_000);
    console.log(`restart ready after ${Date.now() - started} ms`);
    expect(service.stdout()).not.toContain('Admin token');
    const admin = new HttpClient(`http://127.0.0.1:${env['ADMIN_PORT']}`, adminToken);
    expect((await admin.get('/version')).status).toBe(200);
    const warnings = `${service.stdout()}${service.stderr()}`
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level?: string; msg?: string })
      .filter((entry) => entry.level === 'warn');
    for (const flag of NODE_START_FLAGS) expect(warnings.some((entry) => entry.msg?.includes(flag))).toBe(true);
    service.child.kill('SIGINT');
    expect(await service.exited).toBe(0);
  }, 60_000);
});

describe('boot failures', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it.each([
    [{ PUBLIC_PORT: 'abc' }, 'PUBLIC_PORT'],
    [{ ISSUER_URL: 'nope' }, 'ISSUER_URL'],
    [{ NODE_ENV: 'production' }, 'SECRETS_SYSTEM'],
    [{ CONFIG_FILE: '/nonexistent/latchkey.yaml' }, 'CONFIG_FILE'],
  ])('exits 1 with a message naming the key for %o', async (bad, key) => {
    const dataDir = await tempDataDir();
    try {
      const service = runService({ DATA_DIR: dataDir, ...bad });
      expect(await service.exited).toBe(1);
      expect(service.stderr()).toMatch(new RegExp(`^Configuration error: ${key}:`, 'm'));
      expect(existsSync(join(dataDir, 'postgres'))).toBe(false);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('request logs', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('write one JSON line per request with the request id, and never a token, a cookie or a query string', async () => {
    const dataDir = await tempDataDir();
    const adminPort = await freePort();
    const token = 'lk_admin_log_test_0123456789abcdef';
    const service = runService({
      DATA_DIR: dataDir,
      DATABASE_URL: await freshDatabase(),
      SECRETS_SYSTEM: 'log-test-secret-0123456789',
      ADMIN_TOKENS: token,
      PUBLIC_PORT: String(await freePort()),
      ADMIN_PORT: String(adminPort),
      LOG_LEVEL: 'info',
    });
    try {
      await service.waitForOutput(/is ready/, 30_000);
      const admin = new HttpClient(`http://127.0.0.1:${adminPort}`, token);
      const response = await admin.get('/version?code=query-secret-value', {
        headers: { 'x-request-id': 'log-line-check', cookie: 'session=cookie-secret-value' },
      });
      expect(response.status).toBe(200);
      const line = await service.waitForOutput(/^\{.*"reqId":"log-line-check".*\}$/m, 5000);
      const entry = JSON.parse(line[0]) as Record<string, unknown>;
      expect(entry).toMatchObject({ msg: 'request', method: 'GET', path: '/version', route: '/version', listener: 'admin', status: 200 });
      expect(service.stdout().match(/"reqId":"log-line-check"/g)).toHaveLength(1);
      for (const secret of [token, 'query-secret-value', 'cookie-secret-value']) {
        expect(service.stdout()).not.toContain(secret);
        expect(service.stderr()).not.toContain(secret);
      }
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('npm start', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('hands a SIGTERM sent to npm to the service, which shuts down and frees its ports', async () => {
    // A supervisor that runs `npm start` signals npm, not the service: npm passes the signal to the
    // script's process, so the script must be the service itself and not a shell waiting for it.
    const dataDir = await tempDataDir();
    const env = {
      DATABASE_URL: await freshDatabase(),
      DATA_DIR: dataDir,
      PUBLIC_PORT: String(await freePort()),
      ADMIN_PORT: String(await freePort()),
      LOG_LEVEL: 'info',
    };
    const npm = runNpmStart(env);
    const pub = new HttpClient(`http://127.0.0.1:${env.PUBLIC_PORT}`);
    try {
      await npm.waitForOutput(/is ready/, 60_000);
      expect((await pub.get('/health/alive')).status).toBe(200);
      npm.child.kill('SIGTERM');
      await npm.exited;
      await npm.waitForOutput(/shutdown finished/, 15_000);
      // Nothing is left listening: an orphaned service would still answer here.
      let answered = true;
      for (let waited = 0; waited < 10_000 && answered; waited += 250) {
        answered = await fetch(`http://127.0.0.1:${env.PUBLIC_PORT}/health/alive`, { signal: AbortSignal.timeout(1000) }).then(
          () => true,
          () => false,
        );
        if (answered) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(answered).toBe(false);
    } finally {
      if (npm.child.exitCode === null) npm.child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('npm run migrate', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('applies every pending migration to DATABASE_URL, then finds nothing to do', async () => {
    const url = await freshDatabase();
    const run = () =>
      promisify(execFile)(process.execPath, ['dist/src/cli/migrate.js'], { env: { PATH: process.env['PATH'], DATABASE_URL: url } });
    const first = await run();
    expect(first.stdout).toMatch(/^Applied: /);
    const rows = await queryDatabase(url, 'SELECT name FROM latchkey_migrations');
    expect(rows.length).toBeGreaterThan(0);
    const second = await run();
    expect(second.stdout).toBe('No pending migrations.\n');
  }, 60_000);
});
