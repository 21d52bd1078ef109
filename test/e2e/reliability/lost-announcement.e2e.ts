import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../../support/app.js';
import { freshDatabase, queryDatabase } from '../../support/database.js';
import { basic, createClient, token } from '../../support/oauth.js';
import { waitUntil } from '../../support/own-postgres.js';

/** What CACHE_MAX_STALENESS is set to here, and the slack a loaded machine needs on top of it. */
const MAX_STALENESS_SECONDS = 2;
const SLACK_MS = 3000;

/**
 * A change whose announcement never reaches an instance (made here in SQL, as an operator would, so
 * no announcement exists at all) is picked up within CACHE_MAX_STALENESS on every cache: the bound
 * holds whatever happened to the announcement.
 */
describe('a lost change announcement', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const databaseUrl = await freshDatabase();
    const env = { CACHE_MAX_STALENESS: `${MAX_STALENESS_SECONDS}s` };
    a = await bootApp(env, { databaseUrl });
    b = await bootApp(env, { databaseUrl });
  });

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('stops accepting a replaced client secret within the bound', async () => {
    const grant = { grant_type: 'client_credentials' };
    const rotated = await createClient(a, { grant_types: ['client_credentials'] });
    const donor = await createClient(a, { grant_types: ['client_credentials'] });
    // B verifies the secret once: the client and the successful check are now cached there.
    expect((await token(b, grant, basic(rotated.client_id, rotated.client_secret!))).status).toBe(200);

    await queryDatabase(a.databaseUrl, 'UPDATE clients SET secret_hash = (SELECT secret_hash FROM clients WHERE id = $2) WHERE id = $1', [
      rotated.client_id,
      donor.client_id,
    ]);
    const changedAt = Date.now();
    await waitUntil(async () => (await token(b, grant, basic(rotated.client_id, rotated.client_secret!))).status === 401, 10_000);
    expect(Date.now() - changedAt).toBeLessThan(MAX_STALENESS_SECONDS * 1000 + SLACK_MS);
    expect((await token(b, grant, basic(rotated.client_id, donor.client_secret!))).status).toBe(200);
  });

  it('applies a new deny policy within the bound', async () => {
    const allowed = (app: TestApp) =>
      app.admin.post('/engines/acp/service/exact/allowed', { json: { subject: 'alice', resource: 'doc', action: 'read' } });
    const policy = { id: 'allow-alice', effect: 'allow', subjects: ['alice'], resources: ['doc'], actions: ['read'] };
    expect((await a.admin.put('/engines/acp/service/exact/policies', { json: policy })).status).toBe(200);
    await waitUntil(async () => (await allowed(b)).status === 200, 10_000);

    await queryDatabase(
      a.databaseUrl,
      `INSERT INTO acp_policies (flavor, id, description, effect, subjects, resources, actions, conditions)
       VALUES ('exact', 'deny-alice', '', 'deny', ARRAY['alice'], ARRAY['doc'], ARRAY['read'], '{}')`,
    );
    const changedAt = Date.now();
    await waitUntil(async () => (await allowed(b)).status === 403, 10_000);
    expect(Date.now() - changedAt).toBeLessThan(MAX_STALENESS_SECONDS * 1000 + SLACK_MS);
  });
});
