import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../../support/app.js';
import { OwnPostgres, waitUntil } from '../../support/own-postgres.js';

const WORKERS = 6;

/**
 * PostgreSQL SIGKILLed, then stopped fast, while clients and identities are being created: every
 * write the service acknowledged is still there afterwards, every other answer is a 503, and the
 * service recovers both times without a restart.
 */
describe('the database crashing under write load', () => {
  let postgres: OwnPostgres;
  let app: TestApp;

  beforeAll(async () => {
    postgres = await OwnPostgres.start();
    // Identities are created several at a time: the inflight rule that allows one create per project at a
    // time would answer 429s that say nothing about the database.
    app = await bootApp(
      { DATABASE_CONNECT_TIMEOUT_MS: '3000', DATABASE_POOL_SIZE: '8', RATE_LIMIT_INFLIGHT: 'off' },
      { databaseUrl: postgres.url },
    );
  });

  afterAll(async () => {
    await app?.close();
    await postgres?.destroy();
  });

  it('loses no acknowledged write and answers 503 meanwhile', async () => {
    const clients: string[] = [];
    const identities: string[] = [];
    const statuses = new Map<number, number>();
    const readiness: number[] = [];
    let writing = true;

    const worker = async (index: number): Promise<void> => {
      for (let round = 0; writing; round += 1) {
        if (round % 2 === 0) {
          const response = await app.admin.post<{ client_id: string }>('/clients', { json: { client_name: `load-${index}-${round}` } });
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status === 201) clients.push(response.body.client_id);
        } else {
          const email = `load-${index}-${round}@example.com`;
          const response = await app.admin.post<{ id: string }>('/identities', { json: { traits: { email } } });
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status === 201) identities.push(response.body.id);
        }
        if (statuses.get(503) !== undefined) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, index) => worker(index)));

    const ready = async (): Promise<boolean> => {
      const status = (await app.public.get('/health/ready')).status;
      readiness.push(status);
      return status === 200;
    };
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await postgres.kill();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    readiness.push((await app.public.get('/health/ready')).status);
    await postgres.restart();
    await waitUntil(ready, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await postgres.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await postgres.restart();
    await waitUntil(ready, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    writing = false;
    await load;

    expect([...statuses.keys()].sort()).toEqual([201, 503]);
    expect(readiness).toContain(503);
    expect(clients.length).toBeGreaterThan(0);
    expect(identities.length).toBeGreaterThan(0);
    for (const id of clients) expect((await app.admin.get(`/clients/${encodeURIComponent(id)}`)).status).toBe(200);
    for (const id of identities) expect((await app.admin.get(`/identities/${id}`)).status).toBe(200);
  }, 90_000);
});
