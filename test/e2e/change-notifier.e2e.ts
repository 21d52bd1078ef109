import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataSource } from 'typeorm';
import { ChangeNotifier } from '../../src/database/change-notifier.js';
import { bootApp, type TestApp } from '../support/app.js';
import { freshDatabase, queryDatabase } from '../support/database.js';

async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('change notifications between instances', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const databaseUrl = await freshDatabase();
    a = await bootApp({}, { databaseUrl });
    b = await bootApp({}, { databaseUrl });
  });

  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  it('delivers a change to every instance, the publisher included, once each', async () => {
    const seenByA: string[] = [];
    const seenByB: string[] = [];
    a.running.app.get(ChangeNotifier).subscribe('test-topic', (key) => seenByA.push(key));
    b.running.app.get(ChangeNotifier).subscribe('test-topic', (key) => seenByB.push(key));
    await a.running.app.get(ChangeNotifier).publish('test-topic', 'k1');
    await eventually(() => seenByB.includes('k1'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seenByA).toEqual(['k1']);
    expect(seenByB).toEqual(['k1']);
  });

  it('tells subscribers to drop everything after their listening connection was lost and came back', async () => {
    const seenByB: string[] = [];
    b.running.app.get(ChangeNotifier).subscribe('other-topic', (key) => seenByB.push(key));
    const name = new URL(a.databaseUrl).pathname.slice(1);
    await queryDatabase(
      a.databaseUrl,
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'latchkey-notify'",
      [name],
    );
    // Published while both listeners are down: it goes through A's pool, and B drops its cache on reconnect.
    await a.running.app.get(ChangeNotifier).publish('other-topic', 'k2');
    await eventually(() => seenByB.includes('*') || seenByB.includes('k2'));
    // After reconnecting, ordinary announcements flow again.
    await eventually(() => {
      void a.running.app.get(ChangeNotifier).publish('other-topic', 'k3');
      return seenByB.includes('k3');
    }, 10_000);
  });

  it('announces inside the write transaction: heard everywhere on commit, never on rollback', async () => {
    const seenByA: string[] = [];
    const seenByB: string[] = [];
    a.running.app.get(ChangeNotifier).subscribe('tx-topic', (key) => seenByA.push(key));
    b.running.app.get(ChangeNotifier).subscribe('tx-topic', (key) => seenByB.push(key));
    const notifier = a.running.app.get(ChangeNotifier);
    const dataSource = a.running.app.get(DataSource);

    await expect(
      dataSource.transaction(async (manager) => {
        await notifier.publishWithin(manager, 'tx-topic', 'rolled-back');
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    await dataSource.transaction((manager) => notifier.publishWithin(manager, 'tx-topic', 'committed'));

    // B hears the committed change and, since notifications arrive in commit order, nothing before it.
    await eventually(() => seenByB.includes('committed'));
    expect(seenByB).toEqual(['committed']);
    // A heard both at once (its own cache must not outlive its write), and the committed one again over LISTEN.
    await eventually(() => seenByA.filter((key) => key === 'committed').length === 2);
    expect(seenByA).toEqual(['rolled-back', 'committed', 'committed']);
  });
});
