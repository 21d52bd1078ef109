import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
