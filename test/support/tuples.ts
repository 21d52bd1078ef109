import { expect } from 'vitest';
import type { TestApp } from './app.js';
import { queryDatabase } from './database.js';

/**
 * Waits until every relation-tuple announcement committed so far has come back to `app` over LISTEN:
 * a writer's own commits also come back (and drop its check cache once more) a moment after they were
 * acknowledged, so a test that asserts what stays cached must not fill the cache before then.
 * PostgreSQL delivers notifications in commit order, so once a drop announced last has arrived, every
 * earlier one has too. `namespace` must be known to `app`, stored under `namespaceId`.
 */
export async function tupleAnnouncementsSettled(app: TestApp, namespace: string, namespaceId: number): Promise<void> {
  const object = `canary-${Math.random().toString(36).slice(2)}`;
  const query = new URLSearchParams({ namespace, object, relation: 'viewer', subject: 'pat' }).toString();
  const allowed = async (): Promise<boolean> => (await app.admin.get<{ allowed: boolean }>(`/check?${query}`)).body.allowed;
  expect(await allowed()).toBe(false);
  // Behind the service's back: the answer above stays cached until the drop below arrives.
  await queryDatabase(
    app.databaseUrl,
    `INSERT INTO relation_tuples (namespace_id, object, relation, subject_key) VALUES ($1, $2, 'viewer', 'i:pat')`,
    [namespaceId, object],
  );
  await queryDatabase(app.databaseUrl, `SELECT pg_notify('latchkey_changes', $1)`, [
    JSON.stringify({ topic: 'relation-tuples', key: '*' }),
  ]);
  expect(await eventually(allowed)).toBe(true);
}

/** Polls `probe` until it holds, for up to `timeoutMs`; whether it did. */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
