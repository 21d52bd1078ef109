import { createHash, randomUUID } from 'node:crypto';
import {
  createLocalJWKSet,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JSONWebKeySet,
  type JWK,
} from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/common/net/free-port.js';
import { bootApp, TEST_SYSTEM_SECRET, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import { startHttpsFixture, type HttpsFixture } from '../support/https-fixture.js';
import { authorize, basic, createClient, expectOAuthError, token, type WireClient } from '../support/oauth.js';

/**
 * POST /oauth2/token with the client_credentials grant: every client authentication method, the
 * private_key_jwt attacks of the security catalogue, scope and audience bounds, and the
 * response headers. Code and refresh flows are in oauth-code-refresh.e2e.ts.
 */
let app: TestApp;
let fixture: HttpsFixture;
const OPAQUE = /^lk_at_[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/;
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

let fixtureJwks: { keys: JWK[] } = { keys: [] };

beforeAll(async () => {
  fixture = await startHttpsFixture();
  fixture.route('/jwks.json', (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(fixtureJwks));
  });
  // A fixed port known before the boot, so that the issuer is the URL openid-client reaches.
  const port = await freePort();
  app = await bootApp({
    PUBLIC_PORT: String(port),
    ISSUER_URL: `http://127.0.0.1:${port}`,
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
    OUTBOUND_CA_FILE: fixture.caFile,
  });
});

afterAll(async () => {
  await app?.close();
  await fixture?.close();
});

function ccClient(extra: Record<string, unknown> = {}): Promise<WireClient> {
  return createClient(app, {
    grant_types: ['client_credentials'],
    response_types: [],
    scope: 'read write api.*',
    audience: ['https://api.example/v1'],
    ...extra,
  });
}

interface KeyPair {
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
}

async function keyPair(alg: 'ES256' | 'RS256' = 'ES256', kid: string = randomUUID()): Promise<KeyPair> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

function assertion(
  key: KeyPair,
  clientId: string,
  claims: Record<string, unknown> = {},
  header: Record<string, unknown> = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: clientId,
    sub: clientId,
    aud: `${app.running.config.urls.issuer}/oauth2/token`,
    jti: randomUUID(),
    iat: now,
    exp: now + 300,
    ...claims,
  })
    .setProtectedHeader({ alg: (key.publicJwk.alg as string) ?? 'ES256', kid: key.publicJwk.kid, ...header })
    .sign(key.privateKey);
}

function withAssertion(jwt: string, extra: Record<string, string> = {}): Record<string, string> {
  return { grant_type: 'client_credentials', client_assertion_type: JWT_BEARER, client_assertion: jwt, ...extra };
}

describe('client_credentials with client_secret_basic', () => {
  it('issues an opaque bearer token; only its HMAC is stored; S33 no-store headers', async () => {
    const client = await ccClient();
    const response = await token(app, { grant_type: 'client_credentials', scope: 'read' }, basic(client.client_id, client.client_secret!));
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    expect(response.body).toEqual({ access_token: expect.stringMatching(OPAQUE), token_type: 'bearer', expires_in: 3600, scope: 'read' });
    expect(response.body).not.toHaveProperty('refresh_token');
    expect(response.body).not.toHaveProperty('id_token');

    const [random, signature] = response.body.access_token.split('.') as [string, string];
    const rows = await queryDatabase(app.databaseUrl, `SELECT * FROM oauth2_access_tokens WHERE client_id = $1`, [client.client_id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!['signature']).toBe(signature);
    expect(rows[0]!['subject']).toBe(client.client_id);
    expect(JSON.stringify(rows[0])).not.toContain(random.slice('lk_at_'.length));
  });

  it('S33: error responses carry no-store too', async () => {
    const client = await ccClient();
    const response = await token(app, { grant_type: 'client_credentials', scope: 'admin' }, basic(client.client_id, client.client_secret!));
    expectOAuthError(response, 400, 'invalid_scope');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
  });

  it('form-url-decodes the id and secret of the Basic header (RFC 6749 §2.3.1)', async () => {
    const secret = 'p@ss:w/rd+%x y';
    const client = await ccClient({ client_id: `cc client:${randomUUID()}`, client_secret: secret });
    const ok = await token(app, { grant_type: 'client_credentials' }, basic(client.client_id, secret));
    expect(ok.status, ok.text).toBe(200);
    // Sent without the encoding, `%x` is not a valid escape: refused.
    const raw = { authorization: `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString('base64')}` };
    expectOAuthError(await token(app, { grant_type: 'client_credentials' }, raw), 401, 'invalid_client');
  });

  it('S29: a failed Basic authentication is a 401 with WWW-Authenticate: Basic', async () => {
    const client = await ccClient();
    const response = await token(app, { grant_type: 'client_credentials' }, basic(client.client_id, 'wrong-secret'));
    expectOAuthError(response, 401, 'invalid_client');
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
    const unknown = await token(app, { grant_type: 'client_credentials' }, basic(`unknown-${randomUUID()}`, 'whatever-secret'));
    expectOAuthError(unknown, 401, 'invalid_client');
    expect(unknown.headers.get('www-authenticate')).toMatch(/^Basic /);
  });
});

describe('S30: the secret check over HTTP (timing itself: src/clients/secret-comparison.spec.ts)', () => {
  it('answers every wrong secret, whatever its length or shared prefix, and an unknown client, with the same 401', async () => {
    const right = 'correct-horse-battery-staple-0123456789';
    const client = await ccClient({ client_secret: right });
    const wrong = [
      '',
      'c',
      right.slice(0, 8),
      right.slice(0, -1),
      `${right.slice(0, -1)}X`,
      `${right}x`,
      'é'.repeat(200),
      'x'.repeat(5_000),
    ];
    const bodies = new Set<string>();
    for (const secret of wrong) {
      for (const clientId of [client.client_id, `unknown-${randomUUID()}`]) {
        const basicResponse = await token(app, { grant_type: 'client_credentials' }, basic(clientId, secret));
        expectOAuthError(basicResponse, 401, 'invalid_client');
        expect(basicResponse.headers.get('www-authenticate')).toMatch(/^Basic /);
        const { request_id: _requestId, ...body } = basicResponse.body as unknown as Record<string, unknown>;
        bodies.add(JSON.stringify(body));
      }
    }
    // No difference in the answer tells an unknown client from a wrong secret.
    expect(bodies.size).toBe(1);
    const ok = await token(app, { grant_type: 'client_credentials' }, basic(client.client_id, right));
    expect(ok.status, ok.text).toBe(200);
  });

  it('a 100 000-character secret in the form is one more wrong secret, not an error', async () => {
    const client = await ccClient({ token_endpoint_auth_method: 'client_secret_post' });
    const response = await token(app, {
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: 'x'.repeat(100_000),
    });
    expectOAuthError(response, 401, 'invalid_client');
  });
});

describe('client_credentials with the other authentication methods', () => {
  it('client_secret_post', async () => {
    const client = await ccClient({ token_endpoint_auth_method: 'client_secret_post' });
    const response = await token(app, {
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret!,
      scope: 'write',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.scope).toBe('write');
  });

  it('private_key_jwt with registered jwks', async () => {
    const key = await keyPair();
    const client = await ccClient({ token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [key.publicJwk] } });
    const response = await token(app, withAssertion(await assertion(key, client.client_id), { scope: 'read' }));
    expect(response.status, response.text).toBe(200);
    expect(response.body.access_token).toMatch(OPAQUE);
  });

  it('private_key_jwt with aud = the issuer, and with client_id repeated in the form', async () => {
    const key = await keyPair();
    const client = await ccClient({ token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [key.publicJwk] } });
    const jwt = await assertion(key, client.client_id, { aud: app.running.config.urls.issuer });
    const response = await token(app, withAssertion(jwt, { client_id: client.client_id }));
    expect(response.status, response.text).toBe(200);
  });

  it('private_key_jwt with a jwks_uri, fetched through the outbound client and cached', async () => {
    const key = await keyPair('RS256');
    fixtureJwks = { keys: [key.publicJwk] };
    const client = await ccClient({ token_endpoint_auth_method: 'private_key_jwt', jwks_uri: `${fixture.origin}/jwks.json` });
    expect((await token(app, withAssertion(await assertion(key, client.client_id)))).status).toBe(200);
    // The document changes, but the cached copy (5 minutes) still holds the key.
    fixtureJwks = { keys: [] };
    const cached = await token(app, withAssertion(await assertion(key, client.client_id)));
    expect(cached.status, cached.text).toBe(200);
  });

  it('none: a public client cannot use client_credentials', async () => {
    const client = await ccClient({ token_endpoint_auth_method: 'none' });
    const response = await token(app, { grant_type: 'client_credentials', client_id: client.client_id });
    expectOAuthError(response, 400, 'invalid_grant');
  });
});

describe('S28: the registered method and no other', () => {
  it('refuses client_secret_post for a client_secret_basic client', async () => {
    const client = await ccClient();
    const response = await token(app, {
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret!,
    });
    expectOAuthError(response, 401, 'invalid_client');
  });

  it('refuses Basic for a client_secret_post client, with WWW-Authenticate', async () => {
    const client = await ccClient({ token_endpoint_auth_method: 'client_secret_post' });
    const response = await token(app, { grant_type: 'client_credentials' }, basic(client.client_id, client.client_secret!));
    expectOAuthError(response, 401, 'invalid_client');
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
  });

  it('refuses a secret sent by a public (none) client', async () => {
    const client = await ccClient({ token_endpoint_auth_method: 'none' });
    expectOAuthError(
      await token(app, { grant_type: 'client_credentials', client_id: client.client_id, client_secret: 'anything-at-all' }),
      401,
      'invalid_client',
    );
    expectOAuthError(
      await token(app, { grant_type: 'client_credentials' }, basic(client.client_id, 'anything-at-all')),
      401,
      'invalid_client',
    );
  });

  it('refuses a private_key_jwt client that sends a secret, and a secret client that sends an assertion', async () => {
    const key = await keyPair();
    const jwtClient = await ccClient({ token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [key.publicJwk] } });
    expectOAuthError(
      await token(app, { grant_type: 'client_credentials' }, basic(jwtClient.client_id, 'some-secret')),
      401,
      'invalid_client',
    );
    const secretClient = await ccClient();
    expectOAuthError(await token(app, withAssertion(await assertion(key, secretClient.client_id))), 401, 'invalid_client');
  });

  it('two mechanisms at once are an invalid_request', async () => {
    const client = await ccClient();
    const response = await token(
      app,
      { grant_type: 'client_credentials', client_secret: client.client_secret! },
      basic(client.client_id, client.client_secret!),
    );
    expectOAuthError(response, 400, 'invalid_request');
  });

  it('no client authentication at all is invalid_client', async () => {
    expectOAuthError(await token(app, { grant_type: 'client_credentials' }), 401, 'invalid_client');
  });
});

describe('S31/S32: private_key_jwt assertions', () => {
  let key: KeyPair;
  let client: WireClient;

  beforeAll(async () => {
    key = await keyPair();
    client = await ccClient({
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'ES256',
      jwks: { keys: [key.publicJwk] },
    });
  });

  it('S31: a replayed assertion (same jti) is refused', async () => {
    const jwt = await assertion(key, client.client_id);
    expect((await token(app, withAssertion(jwt))).status).toBe(200);
    expectOAuthError(await token(app, withAssertion(jwt)), 401, 'invalid_client');
  });

  it('S31: alg none is refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ alg: 'none', typ: 'JWT' })}.${encode({
      iss: client.client_id,
      sub: client.client_id,
      aud: `${app.running.config.urls.issuer}/oauth2/token`,
      jti: randomUUID(),
      exp: now + 300,
    })}.`;
    expectOAuthError(await token(app, withAssertion(unsigned)), 401, 'invalid_client');
  });

  it('S31: HS256 keyed with the public key is refused', async () => {
    const secret = new TextEncoder().encode(JSON.stringify(key.publicJwk));
    const now = Math.floor(Date.now() / 1000);
    const forged = await new SignJWT({
      iss: client.client_id,
      sub: client.client_id,
      aud: `${app.running.config.urls.issuer}/oauth2/token`,
      jti: randomUUID(),
      exp: now + 300,
    })
      .setProtectedHeader({ alg: 'HS256', kid: key.publicJwk.kid })
      .sign(secret);
    expectOAuthError(await token(app, withAssertion(forged)), 401, 'invalid_client');
  });

  it('S31: an algorithm other than the registered token_endpoint_auth_signing_alg is refused', async () => {
    const rsa = await keyPair('RS256');
    const both = await ccClient({
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'ES256',
      jwks: { keys: [key.publicJwk, rsa.publicJwk] },
    });
    expectOAuthError(await token(app, withAssertion(await assertion(rsa, both.client_id))), 401, 'invalid_client');
    expect((await token(app, withAssertion(await assertion(key, both.client_id)))).status).toBe(200);
  });

  it('S31: wrong aud, missing or expired or far exp, wrong iss or sub, missing jti are refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<Record<string, unknown>> = [
      { aud: 'https://elsewhere.example/token' },
      { exp: undefined },
      { exp: now - 300, iat: now - 600 },
      { exp: now + 3 * 3600 },
      { iss: 'someone-else' },
      { sub: 'someone-else' },
      { jti: undefined },
    ];
    for (const claims of cases) {
      const jwt = await assertion(key, client.client_id, claims);
      expectOAuthError(await token(app, withAssertion(jwt)), 401, 'invalid_client');
    }
  });

  it('an assertion issued or valid only beyond the clock skew (60 s) is refused; within it, accepted', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const claims of [{ iat: now + 600 }, { iat: now + 120 }, { nbf: now + 600 }]) {
      expectOAuthError(await token(app, withAssertion(await assertion(key, client.client_id, claims))), 401, 'invalid_client');
    }
    for (const claims of [{ iat: now + 20 }, { nbf: now + 20 }]) {
      const response = await token(app, withAssertion(await assertion(key, client.client_id, claims)));
      expect(response.status, response.text).toBe(200);
    }
  });

  it('S31: a wrong client_assertion_type is refused', async () => {
    const jwt = await assertion(key, client.client_id);
    expectOAuthError(await token(app, withAssertion(jwt, { client_assertion_type: 'urn:example:other' })), 401, 'invalid_client');
  });

  it('S32: keys come only from the registration, never from the assertion header (jwk, jku, x5u)', async () => {
    const attacker = await keyPair();
    let fetched = 0;
    fixture.route('/attacker-jwks.json', (_request, response) => {
      fetched += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [attacker.publicJwk] }));
    });
    const jwt = await assertion(
      attacker,
      client.client_id,
      {},
      { jwk: attacker.publicJwk, jku: `${fixture.origin}/attacker-jwks.json`, x5u: `${fixture.origin}/attacker-jwks.json` },
    );
    expectOAuthError(await token(app, withAssertion(jwt)), 401, 'invalid_client');
    expect(fetched).toBe(0);
  });

  it('S31: a client_id in the form that differs from the assertion issuer is refused', async () => {
    const other = await ccClient();
    const jwt = await assertion(key, client.client_id);
    expectOAuthError(await token(app, withAssertion(jwt, { client_id: other.client_id })), 401, 'invalid_client');
  });
});

describe('S32: a jwks_uri that points inside, with the default outbound settings', () => {
  let strict: TestApp;

  beforeAll(async () => {
    // It trusts the fixture's certificate: only the refusal of private addresses can stop the fetch.
    strict = await bootApp({ OUTBOUND_CA_FILE: fixture.caFile });
  });

  afterAll(async () => {
    await strict?.close();
  });

  it('is never fetched at the token endpoint: the assertion is refused with invalid_client', async () => {
    let fetched = 0;
    const key = await keyPair();
    fixture.route('/internal-jwks.json', (_request, response) => {
      fetched += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [key.publicJwk] }));
    });
    // Registration refuses a private jwks_uri (clients.e2e.ts); one that became private later (DNS
    // rebinding, an edited row) must still not be fetched.
    const client = await createClient(strict, {
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks_uri: 'https://8.8.8.8/jwks.json',
    });
    await queryDatabase(strict.databaseUrl, 'UPDATE clients SET jwks_uri = $1 WHERE id = $2', [
      `${fixture.origin}/internal-jwks.json`,
      client.client_id,
    ]);
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({
      iss: client.client_id,
      sub: client.client_id,
      aud: `${strict.running.config.urls.issuer}/oauth2/token`,
      jti: randomUUID(),
      exp: now + 300,
    })
      .setProtectedHeader({ alg: 'ES256', kid: key.publicJwk.kid })
      .sign(key.privateKey);
    expectOAuthError(await token(strict, withAssertion(jwt)), 401, 'invalid_client');
    expect(fetched).toBe(0);
  });
});

describe('scope and audience bounds', () => {
  it('grants scopes the registration allows (wildcard strategy) and refuses others', async () => {
    const client = await ccClient();
    const auth = basic(client.client_id, client.client_secret!);
    const ok = await token(app, { grant_type: 'client_credentials', scope: 'read api.users api.users.write' }, auth);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.scope).toBe('read api.users api.users.write');
    expectOAuthError(await token(app, { grant_type: 'client_credentials', scope: 'read delete' }, auth), 400, 'invalid_scope');
    expectOAuthError(await token(app, { grant_type: 'client_credentials', scope: 'api' }, auth), 400, 'invalid_scope');
  });

  it('grants audiences within the registration and refuses others', async () => {
    const client = await ccClient();
    const auth = basic(client.client_id, client.client_secret!);
    const ok = await token(app, { grant_type: 'client_credentials', audience: 'https://api.example/v1/users' }, auth);
    expect(ok.status, ok.text).toBe(200);
    const introspected = await app.admin.post<{ aud: string[] }>('/oauth2/introspect', { form: { token: ok.body.access_token } });
    expect(introspected.body.aud).toEqual(['https://api.example/v1/users']);
    expectOAuthError(
      await token(app, { grant_type: 'client_credentials', audience: 'https://evil.example' }, auth),
      400,
      'invalid_request',
    );
    expectOAuthError(
      await token(app, { grant_type: 'client_credentials', audience: 'https://api.example/v10' }, auth),
      400,
      'invalid_request',
    );
  });

  it('refuses a client that is not registered for the grant', async () => {
    const client = await createClient(app, { redirect_uris: ['https://app.example/cb'] });
    expectOAuthError(
      await token(app, { grant_type: 'client_credentials' }, basic(client.client_id, client.client_secret!)),
      400,
      'unauthorized_client',
    );
  });
});

describe('malformed token requests', () => {
  it('missing and unknown grant types', async () => {
    const client = await ccClient();
    const auth = basic(client.client_id, client.client_secret!);
    expectOAuthError(await token(app, {}, auth), 400, 'invalid_request');
    expectOAuthError(await token(app, { grant_type: 'password', username: 'a', password: 'b' }, auth), 400, 'unsupported_grant_type');
  });

  it('S34: a repeated parameter and a JSON body are invalid_request', async () => {
    const client = await ccClient();
    const auth = basic(client.client_id, client.client_secret!);
    const repeated = await app.public.post('/oauth2/token', {
      rawBody: 'grant_type=client_credentials&grant_type=client_credentials',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectOAuthError(repeated, 400, 'invalid_request');
    const json = await app.public.post('/oauth2/token', { json: { grant_type: 'client_credentials' }, headers: auth });
    expectOAuthError(json, 400, 'invalid_request');
  });

  it('is not served on the admin listener', async () => {
    expect((await app.admin.post('/oauth2/token', { form: { grant_type: 'client_credentials' } })).status).toBe(404);
  });
});

describe('openid-client (certified relying party) at the token and revocation endpoints', () => {
  function discover(clientId: string, auth: oidc.ClientAuth): Promise<oidc.Configuration> {
    return oidc.discovery(new URL(app.running.config.urls.issuer), clientId, undefined, auth, { execute: [oidc.allowInsecureRequests] });
  }

  it('client_credentials with client_secret_basic, then revokes the token', async () => {
    const client = await ccClient({ client_secret: 'secret with spaces & symbols: %+/' });
    const config = await discover(client.client_id, oidc.ClientSecretBasic(client.client_secret!));
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'read write' });
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'read write', expires_in: 3600 });
    await oidc.tokenRevocation(config, tokens.access_token);
    const introspected = await app.admin.post<{ active: boolean }>('/oauth2/introspect', { form: { token: tokens.access_token } });
    expect(introspected.body).toEqual({ active: false });
  });

  it('client_credentials with client_secret_post', async () => {
    const client = await ccClient({ token_endpoint_auth_method: 'client_secret_post' });
    const config = await discover(client.client_id, oidc.ClientSecretPost(client.client_secret!));
    expect((await oidc.clientCredentialsGrant(config, { scope: 'read' })).access_token).toMatch(OPAQUE);
  });

  it('client_credentials with private_key_jwt (assertion audience = the issuer)', async () => {
    const key = await keyPair();
    const client = await ccClient({ token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [key.publicJwk] } });
    const config = await discover(client.client_id, oidc.PrivateKeyJwt({ key: key.privateKey, kid: key.publicJwk.kid! }));
    expect((await oidc.clientCredentialsGrant(config)).access_token).toMatch(OPAQUE);
    // A new assertion (new jti) each time: repeated grants keep working.
    expect((await oidc.clientCredentialsGrant(config)).access_token).toMatch(OPAQUE);
  });
});

describe('JWT access tokens (OAUTH2_ACCESS_TOKEN_STRATEGY=jwt)', () => {
  let jwtApp: TestApp;

  beforeAll(async () => {
    jwtApp = await bootApp({
      OAUTH2_ACCESS_TOKEN_STRATEGY: 'jwt',
      SECRETS_SYSTEM: TEST_SYSTEM_SECRET,
      OIDC_SUBJECT_TYPES: 'public,pairwise',
    });
  });

  afterAll(async () => {
    await jwtApp?.close();
  });

  async function verifyAccessToken(value: string) {
    const jwks = await jwtApp.public.get<JSONWebKeySet>('/.well-known/jwks.json');
    return jwtVerify(value, createLocalJWKSet(jwks.body), { typ: 'at+jwt', issuer: jwtApp.running.config.urls.issuer });
  }

  it('a JWT access token with the admin scope is an admin credential; a revoked one is not', async () => {
    const client = await createClient(jwtApp, { grant_types: ['client_credentials'], response_types: [], scope: 'latchkey.admin' });
    const auth = basic(client.client_id, client.client_secret!);
    const issue = async (): Promise<string> => {
      const issued = await token(jwtApp, { grant_type: 'client_credentials', scope: 'latchkey.admin' }, auth);
      expect(issued.status, issued.text).toBe(200);
      return issued.body.access_token;
    };
    expect((await jwtApp.anonymousAdmin.withToken(await issue()).get('/clients')).status).toBe(200);
    // Revoked before its first use (answers are cached a few seconds, docs/oauth2.md).
    const revoked = await issue();
    expect((await jwtApp.public.post('/oauth2/revoke', { form: { token: revoked }, headers: auth })).status).toBe(200);
    expectOAuthError(await jwtApp.anonymousAdmin.withToken(revoked).get('/clients'), 401, 'unauthorized');
  });

  it("a JWT whose claims were changed under a genuine signature is nobody's token: inactive, 401, never revoked", async () => {
    const client = await createClient(jwtApp, { grant_types: ['client_credentials'], response_types: [], scope: 'read latchkey.admin' });
    const auth = basic(client.client_id, client.client_secret!);
    const issued = await token(jwtApp, { grant_type: 'client_credentials', scope: 'read' }, auth);
    expect(issued.status, issued.text).toBe(200);
    const [header, , signature] = issued.body.access_token.split('.');
    const claims = { ...decodeJwt(issued.body.access_token), scope: 'read latchkey.admin', sub: 'someone-else' };
    const forged = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;

    const introspected = await jwtApp.admin.post('/oauth2/introspect', { form: { token: forged } });
    expect(introspected.body).toEqual({ active: false });
    expectOAuthError(await jwtApp.public.get('/userinfo', { headers: { authorization: `Bearer ${forged}` } }), 401, 'invalid_token');
    expectOAuthError(await jwtApp.anonymousAdmin.withToken(forged).get('/clients'), 401, 'unauthorized');
    // Revoking the forgery is a no-op (RFC 7009: unknown token), and the genuine token still works.
    expect((await jwtApp.public.post('/oauth2/revoke', { form: { token: forged }, headers: auth })).status).toBe(200);
    expect(
      (await jwtApp.admin.post<{ active: boolean }>('/oauth2/introspect', { form: { token: issued.body.access_token } })).body.active,
    ).toBe(true);
  });

  it('from a user flow: the sub the client sees, the granted audience and scope, the consent session as ext', async () => {
    const client = await createClient(jwtApp, {
      redirect_uris: ['https://rp.example/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: 'openid offline',
      audience: ['https://api.example'],
      subject_type: 'pairwise',
    });
    const { parameters } = await authorize(jwtApp, client.client_id, {
      subject: 'alice',
      scope: ['openid', 'offline'],
      audience: ['https://api.example'],
    });
    const response = await token(
      jwtApp,
      { grant_type: 'authorization_code', code: parameters['code']!, redirect_uri: 'https://rp.example/cb' },
      basic(client.client_id, client.client_secret!),
    );
    expect(response.status, response.text).toBe(200);
    const { payload } = await verifyAccessToken(response.body.access_token);
    const idToken = decodeJwt(response.body.id_token!);
    expect(idToken.sub).toMatch(/^[0-9a-f]{64}$/);
    expect(payload).toMatchObject({
      sub: idToken.sub,
      client_id: client.client_id,
      aud: ['https://api.example'],
      scope: 'openid offline',
      scp: ['openid', 'offline'],
      ext: { tenant: 'acme' },
      acr: 'urn:acr:password',
      amr: ['pwd'],
    });
    // Revoked through the refresh token's family: introspection and /userinfo follow the record, not the signature.
    const revoked = await jwtApp.public.post('/oauth2/revoke', {
      form: { token: response.body.refresh_token! },
      headers: basic(client.client_id, client.client_secret!),
    });
    expect(revoked.status).toBe(200);
    const userinfo = await jwtApp.public.get('/userinfo', { headers: { authorization: `Bearer ${response.body.access_token}` } });
    expectOAuthError(userinfo, 401, 'invalid_token');
  });

  it('issues an RFC 9068 at+jwt signed by a published key, recorded for introspection and revocation', async () => {
    const client = await createClient(jwtApp, { grant_types: ['client_credentials'], response_types: [], scope: 'read' });
    const response = await token(
      jwtApp,
      { grant_type: 'client_credentials', scope: 'read' },
      basic(client.client_id, client.client_secret!),
    );
    expect(response.status, response.text).toBe(200);
    // RFC 9068 §4: the resource server checks typ, the signature against the published keys, iss and exp.
    const { payload, protectedHeader } = await verifyAccessToken(response.body.access_token);
    expect(protectedHeader).toMatchObject({ typ: 'at+jwt', alg: 'RS256' });
    expect(payload).toMatchObject({
      iss: jwtApp.running.config.urls.issuer,
      sub: client.client_id,
      client_id: client.client_id,
      scope: 'read',
      scp: ['read'],
      // RFC 9068 §2.2: never empty; the client itself when no audience was granted.
      aud: [client.client_id],
      ext: {},
    });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(payload.jti).toEqual(expect.any(String));

    const stored = createHash('sha256').update(response.body.access_token.split('.')[2]!).digest('base64url');
    const rows = await queryDatabase(jwtApp.databaseUrl, `SELECT signature FROM oauth2_access_tokens WHERE client_id = $1`, [
      client.client_id,
    ]);
    expect(rows.map((row) => row['signature'])).toEqual([stored]);

    const active = await jwtApp.admin.post<{ active: boolean }>('/oauth2/introspect', { form: { token: response.body.access_token } });
    expect(active.body.active).toBe(true);
    const revoked = await jwtApp.public.post('/oauth2/revoke', {
      form: { token: response.body.access_token },
      headers: basic(client.client_id, client.client_secret!),
    });
    expect(revoked.status).toBe(200);
    const inactive = await jwtApp.admin.post<{ active: boolean }>('/oauth2/introspect', { form: { token: response.body.access_token } });
    expect(inactive.body).toEqual({ active: false });
  });
});
