import { request } from 'node:http';
import { rm } from 'node:fs/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../support/database.js';
import { ensureBuilt, freePort, runService, tempDataDir, type ServiceProcess } from '../../support/process.js';

const ADMIN_TOKEN = 'lk_admin_drain_test_0123456789abcdef';

/** A GET on a connection of its own (no keep-alive pool): the status, or the socket error's code. */
function getOnNewConnection(url: string, headers: Record<string, string> = {}): Promise<number | string> {
  return new Promise((resolve) => {
    const outgoing = request(url, { agent: false, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    outgoing.end();
  });
}

/**
 * SIGTERM with the default shutdown settings, as an orchestrator sends it: no request already sent is
 * reset, and readiness is seen as 503 before the listeners close.
 */
describe.each(['production', 'development'])('SIGTERM with the default drain settings (NODE_ENV=%s)', (nodeEnv) => {
  let dataDir: string | undefined;
  let service: ServiceProcess | undefined;

  beforeAll(() => ensureBuilt(), 180_000);

  afterEach(async () => {
    if (service !== undefined && service.child.exitCode === null) service.child.kill('SIGKILL');
    await service?.exited;
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers every request sent before or just after the signal, and shows readiness 503 before closing', async () => {
    dataDir = await tempDataDir();
    const publicPort = await freePort();
    const adminPort = await freePort();
    service = runService({
      NODE_ENV: nodeEnv,
      DATA_DIR: dataDir,
      DATABASE_URL: await freshDatabase(),
      SECRETS_SYSTEM: 'drain-test-secret-0123456789',
      ADMIN_TOKENS: ADMIN_TOKEN,
      PUBLIC_PORT: String(publicPort),
      ADMIN_PORT: String(adminPort),
      LOG_LEVEL: 'info',
    });
    await service.waitForOutput(/is ready/, 60_000);
    const publicUrl = `http://127.0.0.1:${publicPort}`;
    const adminUrl = `http://127.0.0.1:${adminPort}`;
    const work = (): Promise<number | string> =>
      Math.random() < 0.5
        ? getOnNewConnection(`${publicUrl}/.well-known/openid-configuration`)
        : getOnNewConnection(`${adminUrl}/clients`, { authorization: `Bearer ${ADMIN_TOKEN}` });

    const before = Array.from({ length: 40 }, work);
    service.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1));
    const after = Array.from({ length: 20 }, work);
    const readiness: Array<number | string> = [];
    for (;;) {
      const status = await getOnNewConnection(`${publicUrl}/health/ready`);
      readiness.push(status);
      if (typeof status === 'string') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    expect(await Promise.all([...before, ...after])).toEqual(Array(60).fill(200));
    expect(readiness).toContain(503);
    // The probe that found the listener closed: refused, or reset if it reached the accept queue last.
    expect(readiness.at(-1)).toMatch(/^ECONN(REFUSED|RESET)$/);
    expect(await service.exited).toBe(0);

    // One JSON format for every log line, Nest's and the requests' alike, with shutdown start and end.
    const entries = service
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.filter((entry) => entry['msg'] === 'request').length).toBeGreaterThanOrEqual(60);
    for (const entry of entries) {
      expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).toContain(entry['level']);
      expect(new Date(String(entry['time'])).toISOString()).toBe(entry['time']);
      expect(typeof entry['msg']).toBe('string');
    }
    expect(entries.map((entry) => entry['msg'])).toEqual(expect.arrayContaining(['shutdown started', 'shutdown finished']));
    expect(entries.some((entry) => entry['context'] === 'InstanceLoader' || entry['context'] === 'RouterExplorer')).toBe(false);
  }, 90_000);
});
