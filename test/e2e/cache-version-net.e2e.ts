import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ClientSecretHasher } from '../../src/clients/client-secret-hasher.js';
import { ChangeNotifier } from '../../src/database/change-notifier.js';
import { AcpPoliciesRepository } from '../../src/policies/acp-policies.repository.js';
import { bootApp, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import { basic, createClient, token } from '../support/oauth.js';

/**
 * The periodic net (CACHE_MAX_STALENESS) reads the version of the policy and client tables and drops
 * those caches only when it moved: a tick that finds no change keeps the compiled policy index and
 * the remembered secret checks. The ticks are run here by hand, so nothing depends on timing.
 */
describe('the periodic cache net with version probes', () => {
  let app: TestApp;
  let notifier: ChangeNotifier;

  beforeAll(async () => {
    app = await bootApp();
    notifier = app.running.app.get(ChangeNotifier);
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await app?.close();
  });

  it('keeps the policy index through ticks without a change, and rebuilds it after a change made in SQL', async () => {
    const allowed = () =>
      app.admin.post('/engines/acp/service/exact/allowed', { json: { subject: 'alice', resource: 'doc', action: 'read' } });
    const policy = { id: 'allow-alice', effect: 'allow', subjects: ['alice'], resources: ['doc'], actions: ['read'] };
    expect((await app.admin.put('/engines/acp/service/exact/policies', { json: policy })).status).toBe(200);
    // The first tick has no earlier version to compare with, so it drops the index once.
    await notifier.resynchronise();
    expect((await allowed()).status).toBe(200);

    const rebuilds = vi.spyOn(app.running.app.get(AcpPoliciesRepository), 'all');
    await notifier.resynchronise();
    await notifier.resynchronise();
    expect((await allowed()).status).toBe(200);
    expect(rebuilds).not.toHaveBeenCalled();

    await queryDatabase(
      app.databaseUrl,
      `INSERT INTO acp_policies (flavor, id, description, effect, subjects, resources, actions, conditions)
       VALUES ('exact', 'deny-alice', '', 'deny', ARRAY['alice'], ARRAY['doc'], ARRAY['read'], '{}')`,
    );
    await notifier.resynchronise();
    expect((await allowed()).status).toBe(403);
    expect(rebuilds).toHaveBeenCalled();
  });

  it('keeps the remembered secret checks through ticks without a change', async () => {
    const grant = { grant_type: 'client_credentials' };
    const client = await createClient(app, { grant_types: ['client_credentials'] });
    await notifier.resynchronise();
    expect((await token(app, grant, basic(client.client_id, client.client_secret!))).status).toBe(200);

    const verifications = vi.spyOn(app.running.app.get(ClientSecretHasher), 'verify');
    await notifier.resynchronise();
    await notifier.resynchronise();
    expect((await token(app, grant, basic(client.client_id, client.client_secret!))).status).toBe(200);
    expect(verifications).not.toHaveBeenCalled();
  });
});
