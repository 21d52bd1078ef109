import { exportJWK, generateKeyPair } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/common/net/free-port.js';
import { bootApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.js';
import { OAuthBrowser, pkcePair, registerClient, type RegisteredClient } from '../support/oauth-browser.js';
import { expectOAuthError } from '../support/oauth.js';

/**
 * Wire compatibility checked by panva's oauth4webapi (a certified relying-party library), which
 * compares the issuer as a string and validates RFC 9068 access tokens itself: the issuer exactly as
 * configured (with and without Hydra's trailing slash) in discovery, ID tokens, JWT access tokens and
 * introspection; `aud` in every JWT access token; introspection by resource-server clients.
 */

const CALLBACK = 'https://rp.example/cb';
const API = 'https://api.example/v1';
const INSECURE = { [oauth.allowInsecureRequests]: true } as const;

interface Running {
  readonly app: TestApp;
  readonly issuer: string;
  readonly as: oauth.AuthorizationServer;
  readonly client: RegisteredClient;
}

async function boot(trailingSlash: boolean): Promise<Running> {
  const [publicPort, adminPort] = [await freePort(), await freePort()];
  const issuer = `http://127.0.0.1:${publicPort}${trailingSlash ? '/' : ''}`;
  const app = await bootApp({
    PUBLIC_PORT: String(publicPort),
    ADMIN_PORT: String(adminPort),
    ISSUER_URL: issuer,
    ADMIN_URL: `http://127.0.0.1:${adminPort}`,
    OAUTH2_ACCESS_TOKEN_STRATEGY: 'jwt',
  });
  const issuerUrl = new URL(issuer);
  const as = await oauth.processDiscoveryResponse(issuerUrl, await oauth.discoveryRequest(issuerUrl, INSECURE));
  const client = await registerClient(app, {
    redirect_uris: [CALLBACK],
    audience: [API],
    grant_types: ['authorization_code', 'client_credentials'],
  });
  return { app, issuer, as, client };
}

/** The code flow through login and consent, redeemed by oauth4webapi (which checks the ID token's iss). */
async function codeFlow(running: Running, grantAudience: string[]): Promise<oauth.TokenEndpointResponse> {
  const { app, as, client } = running;
  const pkce = pkcePair();
  const state = oauth.generateRandomState();
  const location = await new OAuthBrowser(app).completeFlow(
    {
      client_id: client.client_id,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid',
      state,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      ...(grantAudience.length > 0 ? { audience: grantAudience.join(' ') } : {}),
    },
    { subject: 'alice' },
    { grant_scope: ['openid'], grant_access_token_audience: grantAudience },
  );
  const c: oauth.Client = { client_id: client.client_id };
  const params = oauth.validateAuthResponse(as, c, new URL(location), state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    c,
    oauth.ClientSecretPost(client.client_secret!),
    params,
    CALLBACK,
    pkce.verifier,
    INSECURE,
  );
  return oauth.processAuthorizationCodeResponse(as, c, response, { requireIdToken: true });
}

function bearerRequest(running: Running, accessToken: string): Request {
  return new Request(`${running.issuer.replace(/\/$/, '')}/resource`, { headers: { authorization: `Bearer ${accessToken}` } });
}

describe.each([
  ['with a trailing slash', true],
  ['without a trailing slash', false],
])('ISSUER_URL %s', (_name, trailingSlash) => {
  let running: Running;

  beforeAll(async () => {
    running = await boot(trailingSlash);
  });

  afterAll(async () => {
    await running?.app.close();
  });

  it('is the issuer of discovery, character for character, and the endpoints hang off it once', () => {
    expect(running.as.issuer).toBe(running.issuer);
    const base = running.issuer.replace(/\/$/, '');
    expect(running.as.authorization_endpoint).toBe(`${base}/oauth2/auth`);
    expect(running.as.token_endpoint).toBe(`${base}/oauth2/token`);
  });

  it('is the iss of ID tokens and JWT access tokens, and of introspection', async () => {
    const tokens = await codeFlow(running, []);
    expect(oauth.getValidatedIdTokenClaims(tokens)!.iss).toBe(running.issuer);
    const claims = await oauth.validateJwtAccessToken(
      running.as,
      bearerRequest(running, tokens.access_token),
      running.client.client_id,
      INSECURE,
    );
    expect(claims.iss).toBe(running.issuer);
    const introspected = await running.app.admin.post<{ active: boolean; iss: string }>('/oauth2/introspect', {
      form: { token: tokens.access_token },
    });
    expect(introspected.body).toMatchObject({ active: true, iss: running.issuer });
  });
});

describe('JWT access tokens always carry aud (RFC 9068 §2.2)', () => {
  let running: Running;

  beforeAll(async () => {
    running = await boot(true);
  });

  afterAll(async () => {
    await running?.app.close();
  });

  it('the client id when no audience was granted, checked by validateJwtAccessToken', async () => {
    const tokens = await codeFlow(running, []);
    const claims = await oauth.validateJwtAccessToken(
      running.as,
      bearerRequest(running, tokens.access_token),
      running.client.client_id,
      INSECURE,
    );
    expect(claims.aud).toEqual([running.client.client_id]);
    await expect(oauth.validateJwtAccessToken(running.as, bearerRequest(running, tokens.access_token), API, INSECURE)).rejects.toThrow();
  });

  it('the granted audience when there is one', async () => {
    const tokens = await codeFlow(running, [API]);
    const claims = await oauth.validateJwtAccessToken(running.as, bearerRequest(running, tokens.access_token), API, INSECURE);
    expect(claims.aud).toEqual([API]);
  });

  it('client_credentials tokens too', async () => {
    const response = await oauth.clientCredentialsGrantRequest(
      running.as,
      { client_id: running.client.client_id },
      oauth.ClientSecretPost(running.client.client_secret!),
      new URLSearchParams(),
      INSECURE,
    );
    const tokens = await oauth.processClientCredentialsResponse(running.as, { client_id: running.client.client_id }, response);
    const claims = await oauth.validateJwtAccessToken(
      running.as,
      bearerRequest(running, tokens.access_token),
      running.client.client_id,
      INSECURE,
    );
    expect(claims.sub).toBe(running.client.client_id);
  });
});

describe('introspection by resource-server clients (RFC 7662 §2.1)', () => {
  let running: Running;
  let forApi: string;
  let forClientOnly: string;

  beforeAll(async () => {
    running = await boot(false);
    forApi = (await codeFlow(running, [API])).access_token;
    forClientOnly = (await codeFlow(running, [])).access_token;
  });

  afterAll(async () => {
    await running?.app.close();
  });

  async function introspectAs(client: RegisteredClient, token: string, auth = oauth.ClientSecretBasic(client.client_secret!)) {
    const c: oauth.Client = { client_id: client.client_id };
    const response = await oauth.introspectionRequest(running.as, c, auth, token, INSECURE);
    return oauth.processIntrospectionResponse(running.as, c, response);
  }

  it('discovery lists the introspection endpoint on the admin listener and its client authentication methods', () => {
    expect(running.as.introspection_endpoint).toBe(`${running.app.running.urls.admin!.replace(/\/$/, '')}/oauth2/introspect`);
    expect(running.as.introspection_endpoint_auth_methods_supported).toEqual([
      'client_secret_post',
      'client_secret_basic',
      'private_key_jwt',
    ]);
  });

  it('a resource server limited to its audience sees its tokens, and others as inactive', async () => {
    const resourceServer = await registerClient(app(), {
      client_id: API,
      redirect_uris: [],
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
      metadata: { introspection: 'audience' },
    });
    const mine = await introspectAs(resourceServer, forApi);
    expect(mine).toMatchObject({ active: true, aud: [API], sub: 'alice' });
    expect(await introspectAs(resourceServer, forClientOnly)).toEqual({ active: false });
  });

  it('a resource server allowed every token sees them all; client_secret_post works as well', async () => {
    const gateway = await registerClient(app(), {
      redirect_uris: [],
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_post',
      metadata: { introspection: 'any' },
    });
    const seen = await introspectAs(gateway, forClientOnly, oauth.ClientSecretPost(gateway.client_secret!));
    expect(seen).toMatchObject({ active: true, client_id: running.client.client_id });
  });

  it('a resource server authenticating with private_key_jwt (oauth4webapi signs the assertion for the issuer)', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const resourceServer = await registerClient(app(), {
      redirect_uris: [],
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: 'rs-key', alg: 'ES256', use: 'sig' }] },
      metadata: { introspection: 'any' },
    });
    const seen = await introspectAs(resourceServer, forApi, oauth.PrivateKeyJwt({ key: privateKey, kid: 'rs-key' }));
    expect(seen).toMatchObject({ active: true, aud: [API] });
  });

  it('refuses clients not allowed to introspect (the default), public clients, and bad credentials', async () => {
    const plain = await registerClient(app(), {
      redirect_uris: [],
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    const basic = (id: string, secret: string) =>
      `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
    const post = (headers: Record<string, string>, form: Record<string, string>) =>
      running.app.anonymousAdmin.post('/oauth2/introspect', { headers, form: { token: forApi, ...form } });
    expectOAuthError(await post({ authorization: basic(plain.client_id, plain.client_secret!) }, {}), 400, 'unauthorized_client');
    const publicOne = await registerClient(app(), { token_endpoint_auth_method: 'none', metadata: { introspection: 'any' } });
    expectOAuthError(await post({}, { client_id: publicOne.client_id }), 400, 'unauthorized_client');
    expectOAuthError(await post({ authorization: basic(plain.client_id, 'wrong-secret') }, {}), 401, 'invalid_client');
    expectOAuthError(await post({}, {}), 401, 'invalid_client');
    // A bearer token that is not an admin credential is refused by the admin guard, not read as a client.
    const refused = await post({ authorization: 'Bearer not-an-admin-token' }, {});
    expect(refused.status).toBe(401);
    const admin = await post({ authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, {});
    expect(admin.status).toBe(200);
    expect((admin.body as { active: boolean }).active).toBe(true);
  });

  function app(): TestApp {
    return running.app;
  }
});
