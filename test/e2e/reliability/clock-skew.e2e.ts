import { createHmac, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../../support/app.js';
import { queryDatabase } from '../../support/database.js';
import type { HttpResponse } from '../../support/http.js';
import { createClient, expectOAuthError, token } from '../../support/oauth.js';
import { freePort } from '../../support/process.js';

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const CALLBACK = 'https://rp.example/callback';

/**
 * Clients whose clocks are off (R5): a private_key_jwt assertion from a client a few seconds ahead or
 * behind is accepted, one from a client five minutes ahead (issued in the future) or behind (already
 * expired) is refused as invalid_client; the access token the service issues carries lifetimes from
 * its own clock, whatever the client's.
 */
describe('client clock skew', () => {
  let app: TestApp;
  let privateKey: CryptoKey;
  let clientId: string;

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    privateKey = pair.privateKey;
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    const port = await freePort();
    app = await bootApp({ PUBLIC_PORT: String(port), ISSUER_URL: `http://127.0.0.1:${port}`, TTL_ACCESS_TOKEN: '10m' });
    const client = await createClient(app, {
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [publicJwk] },
    });
    clientId = client.client_id;
  });

  afterAll(async () => {
    await app?.close();
  });

  /** An assertion signed by a client whose clock is `skewSeconds` off the service's. */
  async function attempt(skewSeconds: number): Promise<Awaited<ReturnType<typeof token>>> {
    const clientNow = Math.floor(Date.now() / 1000) + skewSeconds;
    const assertion = await new SignJWT({
      iss: clientId,
      sub: clientId,
      aud: `${app.running.config.urls.issuer}/oauth2/token`,
      jti: randomUUID(),
      iat: clientNow,
      exp: clientNow + 120,
    })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .sign(privateKey);
    return token(app, { grant_type: 'client_credentials', client_assertion_type: JWT_BEARER, client_assertion: assertion });
  }

  it.each([-10, 10])('accepts an assertion from a client %i s off', async (skew) => {
    const response = await attempt(skew);
    expect(response.status, response.text).toBe(200);
    // The token's lifetime is the service's, not shortened or stretched by the client's clock.
    expect(response.body.expires_in).toBeGreaterThan(590);
    expect(response.body.expires_in).toBeLessThanOrEqual(600);
  });

  it.each([-300, 300])('refuses an assertion from a client %i s off', async (skew) => {
    expectOAuthError(await attempt(skew), 401, 'invalid_client');
  });
});

/**
 * Request objects from a relying party whose clock is off: an `exp` just passed, or an `nbf` or `iat`
 * just ahead, by the service's clock is within the tolerance and starts the flow; ten minutes off is
 * refused as invalid_request_object, before any flow starts (an `iat` in the future included).
 */
describe('request object clock skew', () => {
  let app: TestApp;
  let privateKey: CryptoKey;
  let clientId: string;
  let issuer: string;

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    privateKey = pair.privateKey;
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    app = await bootApp({ PUBLIC_PORT: String(port), ISSUER_URL: issuer });
    const client = await createClient(app, {
      redirect_uris: [CALLBACK],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      scope: 'openid',
      jwks: { keys: [publicJwk] },
      request_object_signing_alg: 'ES256',
    });
    clientId = client.client_id;
  });

  afterAll(async () => {
    await app?.close();
  });

  /** GET /oauth2/auth with a request object whose time claims are shifted by the given seconds. */
  async function authorizeWith(times: { iat?: number; exp?: number; nbf?: number }): Promise<HttpResponse> {
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      iss: clientId,
      aud: issuer,
      client_id: clientId,
      response_type: 'code',
      redirect_uri: CALLBACK,
      scope: 'openid',
      state: 'state-0123456789',
      jti: randomUUID(),
      iat: now + (times.iat ?? 0),
      exp: now + (times.exp ?? 300),
    };
    if (times.nbf !== undefined) claims['nbf'] = now + times.nbf;
    const request = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'oauth-authz-req+jwt' }).sign(privateKey);
    return app.public.get(`/oauth2/auth?${new URLSearchParams({ client_id: clientId, request }).toString()}`, {
      headers: { accept: 'application/json' },
    });
  }

  function expectFlowStarted(response: HttpResponse): void {
    expect(response.status, response.text).toBe(302);
    expect(new URL(response.headers.get('location')!, issuer).searchParams.get('login_challenge')).not.toBeNull();
  }

  function expectRefused(response: HttpResponse): void {
    expect(response.status, response.text).toBe(400);
    expect((response.body as { error: string }).error).toBe('invalid_request_object');
    expect(response.headers.get('location')).toBeNull();
  }

  it.each([
    ['expired 10 s ago', { iat: -310, exp: -10 }],
    ['valid from 10 s ahead', { nbf: 10 }],
    ['issued 10 s ahead', { iat: 10 }],
  ])('starts the flow for an object %s', async (_label, times) => {
    expectFlowStarted(await authorizeWith(times));
  });

  it.each([
    ['expired 10 min ago', { iat: -900, exp: -600 }],
    ['valid from 10 min ahead', { nbf: 600, exp: 900 }],
    ['issued 10 min ahead', { iat: 600, exp: 900 }],
  ])('refuses an object %s', async (_label, times) => {
    expectRefused(await authorizeWith(times));
  });
});

/**
 * Directory-sync deliveries from a sender whose clock is off, with a tolerance set lower than the
 * default: inside it either way the delivery applies, outside it either way it is refused as a stale
 * timestamp, symmetrically for the past and the future.
 */
describe('webhook timestamp skew', () => {
  let app: TestApp;
  let connection: { id: string; secret: string };

  beforeAll(async () => {
    app = await bootApp({ WEBHOOKS_TOLERANCE: '30s' });
    const created = await app.admin.post<{ id: string; secret: string }>('/directory-sync/connections', { json: { name: 'Okta' } });
    expect(created.status, created.text).toBe(201);
    connection = created.body;
  });

  afterAll(async () => {
    await app?.close();
  });

  function send(skewSeconds: number): Promise<HttpResponse> {
    const id = `dir_user_${randomUUID()}`;
    const body = JSON.stringify({
      directory_id: 'dir_okta',
      event: 'user.created',
      tenant: 'acme',
      product: 'latchkey',
      data: { id, first_name: 'Ada', last_name: 'Lovelace', email: `${id}@example.com`, active: true, raw: {} },
    });
    const t = Date.now() + skewSeconds * 1000;
    const s = createHmac('sha256', connection.secret).update(`${t}.${body}`).digest('hex');
    return app.public.post(`/webhooks/directory-sync/${connection.id}`, {
      rawBody: body,
      headers: { 'content-type': 'application/json', 'service-signature': `t=${t},s=${s}` },
    });
  }

  it.each([-10, 10])('applies a delivery signed %i s off', async (skew) => {
    const response = await send(skew);
    expect(response.status, response.text).toBe(200);
  });

  it.each([-60, 60])('refuses a delivery signed %i s off', async (skew) => {
    const response = await send(skew);
    expect(response.status, response.text).toBe(401);
    expect((response.body as { error: { id: string } }).error.id).toBe('stale_timestamp');
  });
});

/**
 * Self-service flows expire by the expiry the service stored, whoever's clock wrote it: a flow whose
 * expiry is ten seconds away is still served and accepts a submission, one ten seconds past is gone
 * (410 self_service_flow_expired) and its submission restarts with a fresh flow.
 */
describe('self-service flow expiry', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await bootApp();
  });

  afterAll(async () => {
    await app?.close();
  });

  async function flowExpiringIn(seconds: number): Promise<string> {
    const init = await app.public.get<{ id: string }>('/self-service/login/api');
    expect(init.status, init.text).toBe(200);
    await queryDatabase(app.databaseUrl, `UPDATE self_service_flows SET expires_at = $2 WHERE id = $1`, [
      init.body.id,
      new Date(Date.now() + seconds * 1000),
    ]);
    return init.body.id;
  }

  function submit(flowId: string): Promise<HttpResponse<{ id: string }>> {
    return app.public.post<{ id: string }>(`/self-service/login?flow=${flowId}`, {
      json: { method: 'password', password_identifier: 'nobody@example.com', password: 'not the password at all' },
    });
  }

  it('serves a flow that expires in 10 s and takes its submission', async () => {
    const flowId = await flowExpiringIn(10);
    expect((await app.public.get(`/self-service/login/flows?id=${flowId}`)).status).toBe(200);
    const response = await submit(flowId);
    // Wrong credentials on the same flow, not a restart.
    expect(response.status, response.text).toBe(400);
    expect(response.body.id).toBe(flowId);
  });

  it('refuses a flow that expired 10 s ago and restarts its submission', async () => {
    const flowId = await flowExpiringIn(-10);
    const fetched = await app.public.get<{ error: { id: string } }>(`/self-service/login/flows?id=${flowId}`);
    expect(fetched.status).toBe(410);
    expect(fetched.body.error.id).toBe('self_service_flow_expired');
    const response = await submit(flowId);
    expect(response.status, response.text).toBe(302);
    expect(response.body.id).not.toBe(flowId);
  });
});
