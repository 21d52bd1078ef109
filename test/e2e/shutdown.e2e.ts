import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import { ProbeModule } from '../support/probe.module.js';

/** Graceful shutdown as orchestrators expect it (security-and-reliability.md G1–G4). */
describe('graceful shutdown', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await bootApp({ SHUTDOWN_DRAIN_DELAY_MS: '800', SHUTDOWN_TIMEOUT_MS: '10000' }, { extraModules: [ProbeModule] });
  });

  afterAll(async () => {
    await app.close();
  });

  it('turns readiness 503 at once, keeps serving through the drain delay, finishes in-flight requests, then closes the pool', async () => {
    const inFlight = Array.from({ length: 10 }, () => app.admin.get('/clients/_probe/slow?ms=1500'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closing = app.running.close();

    // G1: readiness fails at once; liveness and ordinary routes still answer during the drain delay (G2).
    const ready = await app.public.get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ errors: { server: expect.any(String) } });
    expect((await app.public.get('/health/alive')).status).toBe(200);
    expect((await app.admin.get('/clients/_probe')).status).toBe(200);

    // G3: every in-flight request completes successfully.
    const responses = await Promise.all(inFlight);
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));

    // G4: close resolves, the listener refuses new connections and no connection to the database remains.
    await closing;
    await expect(fetch(`${app.running.urls.public}/health/alive`)).rejects.toThrow();
    const databaseName = new URL(app.databaseUrl).pathname.slice(1);
    const remaining = await queryDatabase<{ count: string }>(
      app.databaseUrl.replace(/\/[^/]+$/, '/postgres'),
      'SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [databaseName],
    );
    expect(Number(remaining[0]!.count)).toBe(0);
  });
});
