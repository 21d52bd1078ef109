import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/app.js';
import { freshDatabase, queryDatabase } from '../../support/database.js';
import { HttpClient, type HttpResponse } from '../../support/http.js';
import { OAuthBrowser, pkcePair, queryParam, registerClient, type RegisteredClient } from '../../support/oauth-browser.js';
import { ensureBuilt, freePort, runService, serviceEnv, tempDataDir, type ServiceProcess } from '../../support/process.js';

const ADMIN_TOKEN = 'lk_admin_oauth_kill_test_0123456789ab';
const ROUNDS = 6;
const FLOWS = 4;
const CALLBACK = 'https://client.example/cb';

type Stage = 'consent' | 'exchange' | 'refresh';

/** One authorization in progress, at the step the kill interrupts. */
interface Flow {
  readonly browser: OAuthBrowser;
  readonly pkce: { verifier: string; challenge: string };
  stage: Stage;
  consentLocation?: string;
  code?: string;
  refreshToken?: string;
  /** The access token issued with `refreshToken`. */
  accessToken?: string;
  /** The request sent when the process died: its outcome is unknown to the client. */
  pending?: Promise<HttpResponse | undefined>;
}

/**
 * The service SIGKILLed while consent accepts, code exchanges and refreshes are in flight, a few
 * rounds in a row: after each restart the token tables hold no half-written grant, no code produced
 * two token sets, no grant chain has two active refresh tokens, and every interrupted step, retried
 * as a client would, either succeeds or fails as a replay would (a refresh whose answer was lost
 * finds its refresh token consumed and the chain revoked).
 */
describe('the service killed during consent and token issuance', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let databaseUrl: string;
  let app: TestApp;
  let client: RegisteredClient;

  beforeAll(async () => {
    ensureBuilt();
    dataDir = await tempDataDir();
    databaseUrl = await freshDatabase();
    const publicPort = await freePort();
    env = await serviceEnv(
      { dataDir, databaseUrl, adminToken: ADMIN_TOKEN, publicPort },
      {
        ISSUER_URL: `http://127.0.0.1:${publicPort}`,
        // Several flows run at once from one address; the limits are not under test.
        RATE_LIMIT_INFLIGHT: 'off',
      },
    );
    // The browser helpers need only the two listeners.
    app = {
      public: new HttpClient(`http://127.0.0.1:${env['PUBLIC_PORT']}`),
      admin: new HttpClient(`http://127.0.0.1:${env['ADMIN_PORT']}`, ADMIN_TOKEN),
    } as unknown as TestApp;
  }, 180_000);

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<ServiceProcess> {
    const service = runService(env);
    await service.waitForOutput(/is ready/, 60_000);
    return service;
  }

  function exchange(flow: Flow): Promise<HttpResponse> {
    return app.public.post('/oauth2/token', {
      form: {
        grant_type: 'authorization_code',
        code: flow.code!,
        redirect_uri: CALLBACK,
        client_id: client.client_id,
        client_secret: client.client_secret!,
        code_verifier: flow.pkce.verifier,
      },
    });
  }

  function refresh(flow: Flow): Promise<HttpResponse> {
    return app.public.post('/oauth2/token', {
      form: {
        grant_type: 'refresh_token',
        refresh_token: flow.refreshToken!,
        client_id: client.client_id,
        client_secret: client.client_secret!,
      },
    });
  }

  /** Brings a flow to the point where `stage` is the next request. */
  async function prepare(stage: Stage): Promise<Flow> {
    const browser = new OAuthBrowser(app);
    const flow: Flow = { browser, pkce: pkcePair(), stage: 'consent' };
    const loginLocation = await browser.authorize({
      client_id: client.client_id,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid offline_access',
      state: 'state-123456',
      code_challenge: flow.pkce.challenge,
      code_challenge_method: 'S256',
    });
    flow.consentLocation = await browser.follow(await browser.acceptLogin(loginLocation, { subject: 'alice' }));
    if (stage === 'consent') return flow;
    await finishConsent(flow);
    if (stage === 'exchange') return flow;
    const tokens = await exchange(flow);
    expect(tokens.status, tokens.text).toBe(200);
    flow.refreshToken = (tokens.body as { refresh_token: string }).refresh_token;
    flow.accessToken = (tokens.body as { access_token: string }).access_token;
    flow.stage = 'refresh';
    return flow;
  }

  /** Consent accept and the redirect back that turns the verifier into a code. */
  async function finishConsent(flow: Flow): Promise<void> {
    const redirect = await flow.browser.acceptConsent(flow.consentLocation!, { grant_scope: ['openid', 'offline_access'] });
    const callback = await flow.browser.follow(redirect);
    flow.code = queryParam(callback, 'code')!;
    expect(flow.code).not.toBeNull();
    flow.stage = 'exchange';
  }

  /** Sends the flow's next request without waiting; a connection dying with the process resolves undefined. */
  function fire(flow: Flow): void {
    const request =
      flow.stage === 'consent'
        ? app.admin.put(
            `/oauth2/auth/requests/consent/accept?consent_challenge=${encodeURIComponent(queryParam(flow.consentLocation!, 'consent_challenge')!)}`,
            {
              json: { grant_scope: ['openid', 'offline_access'] },
            },
          )
        : flow.stage === 'exchange'
          ? exchange(flow)
          : refresh(flow);
    flow.pending = request.catch(() => undefined);
  }

  /** After the restart, does what a client that never saw the answer does, and checks the outcome. */
  async function retry(flow: Flow): Promise<void> {
    if (flow.stage === 'consent') {
      // Nothing was used yet: accepting the same challenge again must work and lead to a code.
      await finishConsent(flow);
      const tokens = await exchange(flow);
      expect(tokens.status, tokens.text).toBe(200);
      return;
    }
    if (flow.stage === 'exchange') {
      const tokens = await exchange(flow);
      if (tokens.status === 200) return;
      // The first exchange committed: the code is spent, and a second use is refused.
      expect(tokens.status, tokens.text).toBe(400);
      expect((tokens.body as { error: string }).error).toBe('invalid_grant');
      return;
    }
    const again = await refresh(flow);
    if (again.status === 200) return;
    // The rotation committed but its answer was lost: the old token counts as reused.
    expect(again.status, again.text).toBe(400);
    expect((again.body as { error: string }).error).toBe('invalid_grant');
    // Handled as a replay: the grant's tokens were revoked with it.
    const introspection = await app.admin.post<{ active: boolean }>('/oauth2/introspect', { form: { token: flow.accessToken! } });
    expect(introspection.status, introspection.text).toBe(200);
    expect(introspection.body.active).toBe(false);
  }

  async function assertInvariants(): Promise<void> {
    const twoActive = await queryDatabase(
      databaseUrl,
      `SELECT request_id FROM oauth2_refresh_tokens WHERE active GROUP BY request_id HAVING count(*) > 1`,
    );
    expect(twoActive).toEqual([]);
    // A code still redeemable has issued nothing.
    const activeCodeWithTokens = await queryDatabase(
      databaseUrl,
      `SELECT c.signature FROM oauth2_authorization_codes c
        WHERE c.active AND (EXISTS (SELECT 1 FROM oauth2_access_tokens a WHERE a.request_id = c.request_id)
                         OR EXISTS (SELECT 1 FROM oauth2_refresh_tokens r WHERE r.request_id = c.request_id))`,
    );
    expect(activeCodeWithTokens).toEqual([]);
    // Every code and token hangs off a consent that was fully handled.
    for (const table of ['oauth2_authorization_codes', 'oauth2_access_tokens', 'oauth2_refresh_tokens']) {
      const halfWritten = await queryDatabase(
        databaseUrl,
        `SELECT t.signature FROM ${table} t JOIN oauth2_consent_requests c ON c.id = t.consent_id WHERE c.handled_at IS NULL`,
      );
      expect(halfWritten, table).toEqual([]);
    }
    // One verifier, one code; one code, one token chain.
    const codesPerConsent = await queryDatabase(
      databaseUrl,
      `SELECT consent_id FROM oauth2_authorization_codes GROUP BY consent_id HAVING count(*) > 1`,
    );
    expect(codesPerConsent).toEqual([]);
    const chainsPerConsent = await queryDatabase(
      databaseUrl,
      `SELECT consent_id FROM oauth2_refresh_tokens GROUP BY consent_id HAVING count(DISTINCT request_id) > 1`,
    );
    expect(chainsPerConsent).toEqual([]);
  }

  it('leaves consistent grants and retriable flows after each kill', async () => {
    let service = await start();
    try {
      client = await registerClient(app, { redirect_uris: [CALLBACK] });
      for (let round = 0; round < ROUNDS; round += 1) {
        const stages: Stage[] = ['consent', 'exchange', 'refresh'];
        const flows = await Promise.all(
          Array.from({ length: FLOWS * stages.length }, (_, index) => prepare(stages[index % stages.length]!)),
        );
        // Requests spread over a window and the kill at a random point in it: some answered, some
        // committed with the answer lost, some never read.
        const killAfter = Math.floor(Math.random() * 80);
        const killed = new Promise<void>((resolve) =>
          setTimeout(() => {
            service.child.kill('SIGKILL');
            resolve();
          }, killAfter),
        );
        for (const flow of flows) {
          fire(flow);
          await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 12)));
        }
        await killed;
        await service.exited;
        const answered = await Promise.all(flows.map((flow) => flow.pending ?? Promise.resolve(undefined)));
        service = await start();
        await assertInvariants();
        for (const [index, flow] of flows.entries()) {
          const answer = answered[index];
          // Answered steps are not under test: a 200 is simply taken; anything else would be a bug.
          if (answer !== undefined) expect(answer.status, answer.text).toBe(200);
          else await retry(flow);
        }
        await assertInvariants();
      }
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  }, 150_000);

  it('lets a consent accept be retried after a kill, and each verifier yield one code at most', async () => {
    let service = await start();
    try {
      client = await registerClient(app, { redirect_uris: [CALLBACK] });
      const flow = await prepare('consent');
      // The accept is answered but the consent app dies before passing the verifier on.
      const firstRedirect = await flow.browser.acceptConsent(flow.consentLocation!, { grant_scope: ['openid', 'offline_access'] });
      service.child.kill('SIGKILL');
      await service.exited;
      service = await start();

      await finishConsent(flow);
      const tokens = await exchange(flow);
      expect(tokens.status, tokens.text).toBe(200);
      // The flow is used: the earlier verifier yields no second code.
      const replay = await flow.browser.get(firstRedirect);
      expect(replay.status, replay.text).toBe(302);
      const location = replay.headers.get('location')!;
      expect(queryParam(location, 'error')).toBe('access_denied');
      expect(queryParam(location, 'code')).toBeNull();
      const codes = await queryDatabase(databaseUrl, `SELECT signature FROM oauth2_authorization_codes WHERE client_id = $1`, [
        client.client_id,
      ]);
      expect(codes).toHaveLength(1);
      await assertInvariants();
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  }, 90_000);

  it('treats the refresh token of a rotation whose answer never reached the client as reused', async () => {
    let service = await start();
    try {
      client = await registerClient(app, { redirect_uris: [CALLBACK] });
      const flow = await prepare('refresh');
      const rows = async (): Promise<Array<{ request_id: string; active: boolean }>> =>
        queryDatabase(databaseUrl, `SELECT request_id, active FROM oauth2_refresh_tokens WHERE client_id = $1`, [client.client_id]);
      expect(await rows()).toHaveLength(1);
      // The rotation is sent and committed, but the client is gone before it reads the answer.
      fire(flow);
      while ((await rows()).length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      service.child.kill('SIGKILL');
      await service.exited;
      service = await start();

      const again = await refresh(flow);
      expect(again.status, again.text).toBe(400);
      expect((again.body as { error: string }).error).toBe('invalid_grant');
      // The whole chain is revoked: the refresh token the client never saw and the access token it holds.
      expect((await rows()).filter((row) => row.active)).toEqual([]);
      const introspection = await app.admin.post<{ active: boolean }>('/oauth2/introspect', { form: { token: flow.accessToken! } });
      expect(introspection.status, introspection.text).toBe(200);
      expect(introspection.body.active).toBe(false);
      await assertInvariants();
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  }, 90_000);
});
