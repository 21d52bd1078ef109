import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type CryptoKey, type JWK } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/common/net/free-port.js';
import { bootApp, type TestApp } from '../support/app.js';
import type { HttpResponse } from '../support/http.js';
import { OAuthBrowser, queryParam, registerClient, responseParams, type RegisteredClient } from '../support/oauth-browser.js';

/**
 * Request objects (OIDC Core §6) made by a certified relying party (openid-client's
 * buildAuthorizationUrlWithJAR) and by hand for the attacks: wrong algorithm, `none` where not
 * registered, unregistered or private request_uris, mismatched client_id, a replayed jti. And the
 * `claims` parameter (OIDC Core §5.5), and OpenID Connect requests without redirect_uri.
 */

const CALLBACK = 'https://rp.example/callback';
const JSON_ACCEPT = { accept: 'application/json' };

interface SigningClient {
  readonly client: RegisteredClient;
  readonly privateKey: CryptoKey;
  readonly kid: string;
}

let app: TestApp;
let issuer: string;
let documents: Server;
let documentsUrl: string;
const served = new Map<string, string>();
let fetches = 0;

beforeAll(async () => {
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  // Private networks allowed so that the request_uri server on 127.0.0.1 can be reached; their refusal is tested on a second instance.
  app = await bootApp({
    PUBLIC_PORT: String(port),
    ISSUER_URL: issuer,
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
    OUTBOUND_TIMEOUT_MS: '1000',
  });
  documents = createServer((request, response) => {
    fetches += 1;
    const body = served.get(request.url ?? '');
    if (request.url === '/redirect') response.writeHead(302, { location: `${documentsUrl}/ok` }).end();
    else if (body === undefined) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'application/oauth-authz-req+jwt' }).end(body);
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  documentsUrl = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => documents?.close(resolve));
});

async function signingClient(alg: string, extra: Record<string, unknown> = {}): Promise<SigningClient> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `${alg}-key`;
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  const client = await registerClient(app, {
    redirect_uris: [CALLBACK],
    token_endpoint_auth_method: 'client_secret_basic',
    jwks: { keys: [jwk] },
    request_object_signing_alg: alg,
    ...extra,
  });
  return { client, privateKey, kid };
}

function discover(client: RegisteredClient): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(issuer), client.client_id, undefined, oidc.ClientSecretBasic(client.client_secret!), {
    execute: [oidc.allowInsecureRequests],
  });
}

/** The user logs in and consents (granting `grant`); returns the redirect to the client and the consent request seen. */
async function userAuthorizes(
  query: Record<string, string>,
  consent: Record<string, unknown> = { grant_scope: ['openid'] },
): Promise<{ location: string; consentRequest: Record<string, unknown> }> {
  const browser = new OAuthBrowser(app);
  const loginLocation = await browser.authorize(query);
  const consentLocation = await browser.follow(await browser.acceptLogin(loginLocation, { subject: 'alice' }));
  const challenge = queryParam(consentLocation, 'consent_challenge')!;
  const consentRequest = await app.admin.get<Record<string, unknown>>(
    `/oauth2/auth/requests/consent?consent_challenge=${encodeURIComponent(challenge)}`,
  );
  const location = await browser.follow(await browser.acceptConsent(consentLocation, consent));
  return { location, consentRequest: consentRequest.body };
}

/** A request object signed by hand, with the claims a well-behaved relying party sends unless overridden. */
async function signedObject(signer: SigningClient, alg: string, claims: Record<string, unknown>): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: signer.client.client_id,
    aud: issuer,
    client_id: signer.client.client_id,
    response_type: 'code',
    redirect_uri: CALLBACK,
    scope: 'openid',
    state: 'state-0123456789',
    iat: now,
    exp: now + 300,
    ...claims,
  })
    .setProtectedHeader({ alg, kid: signer.kid, typ: 'oauth-authz-req+jwt' })
    .sign(signer.privateKey);
}

function authorize(query: Record<string, string>, target: TestApp = app): Promise<HttpResponse> {
  return target.public.get(`/oauth2/auth?${new URLSearchParams(query).toString()}`, { headers: JSON_ACCEPT });
}

/** Refused here (the redirect URI comes from the object, so nothing is sent to any client), no flow started. */
function expectShown(response: HttpResponse, error: string): void {
  expect(response.status, response.text).toBe(400);
  expect(response.headers.get('location')).toBeNull();
  expect((response.body as { error: string }).error).toBe(error);
  expect(response.headers.getSetCookie()).toEqual([]);
}

describe('signed request objects from a certified relying party', () => {
  it.each(['RS256', 'ES256', 'PS256'])('%s: the object alone carries the request, and the flow completes', async (alg) => {
    const signer = await signingClient(alg);
    const config = await discover(signer.client);
    expect(config.serverMetadata().request_parameter_supported).toBe(true);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = await oidc.buildAuthorizationUrlWithJAR(
      config,
      { redirect_uri: CALLBACK, scope: 'openid', state, nonce },
      { key: signer.privateKey, kid: signer.kid },
    );
    // Only client_id and request travel in the query: every other parameter comes from the object.
    expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request']);
    const { location } = await userAuthorizes(Object.fromEntries(url.searchParams));
    expect(location.startsWith(`${CALLBACK}?`)).toBe(true);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(location), { expectedState: state, expectedNonce: nonce });
    expect(tokens.claims()?.sub).toBe('alice');
  });
});

describe('request objects that are refused', () => {
  let rs256: SigningClient;

  beforeAll(async () => {
    rs256 = await signingClient('RS256', { request_uris: [`${documentsUrl}/ok`, `${documentsUrl}/redirect`, `${documentsUrl}/missing`] });
  });

  it('S08: another algorithm than the registered one (ES256 key for an RS256 client)', async () => {
    const es256 = await signingClient('ES256');
    const object = await signedObject({ ...rs256, privateKey: es256.privateKey, kid: es256.kid }, 'ES256', {});
    expectShown(await authorize({ client_id: rs256.client.client_id, request: object }), 'invalid_request_object');
  });

  it('S08: HS256 with the public key as the secret', async () => {
    const publicJwk = (await app.admin.get<{ jwks: { keys: JWK[] } }>(`/clients/${rs256.client.client_id}`)).body.jwks.keys[0]!;
    const object = await new SignJWT({ iss: rs256.client.client_id, aud: issuer, response_type: 'code', scope: 'openid' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(JSON.stringify(publicJwk)));
    expectShown(await authorize({ client_id: rs256.client.client_id, request: object }), 'invalid_request_object');
  });

  it('S08: alg none from a client that registered a signing algorithm', async () => {
    const unsigned = new UnsecuredJWT({ client_id: rs256.client.client_id, response_type: 'code', scope: 'openid' }).encode();
    expectShown(await authorize({ client_id: rs256.client.client_id, request: unsigned }), 'invalid_request_object');
  });

  it('a wrong signature, iss or aud, or an expired object', async () => {
    const other = await signingClient('RS256');
    const cases = [
      await signedObject({ ...rs256, privateKey: other.privateKey }, 'RS256', {}),
      await signedObject(rs256, 'RS256', { iss: other.client.client_id }),
      await signedObject(rs256, 'RS256', { aud: 'https://elsewhere.example' }),
      await signedObject(rs256, 'RS256', { exp: Math.floor(Date.now() / 1000) - 600 }),
    ];
    for (const object of cases)
      expectShown(await authorize({ client_id: rs256.client.client_id, request: object }), 'invalid_request_object');
  });

  it("a client_id or response_type in the object that differs from the query's", async () => {
    const other = await signingClient('RS256');
    const foreign = await signedObject(rs256, 'RS256', { client_id: other.client.client_id });
    expectShown(await authorize({ client_id: rs256.client.client_id, request: foreign }), 'invalid_request_object');
    const hybrid = await signedObject(rs256, 'RS256', { response_type: 'code id_token' });
    expectShown(await authorize({ client_id: rs256.client.client_id, response_type: 'code', request: hybrid }), 'invalid_request_object');
  });

  it('a replayed jti, within the lifetime of the object', async () => {
    const object = await signedObject(rs256, 'RS256', { jti: `jti-${Date.now()}` });
    const first = await authorize({ client_id: rs256.client.client_id, request: object });
    expect(first.status, first.text).toBe(302);
    expect(queryParam(first.headers.get('location')!, 'login_challenge')).not.toBeNull();
    expectShown(await authorize({ client_id: rs256.client.client_id, request: object }), 'invalid_request_object');
  });

  it('request and request_uri together', async () => {
    const object = await signedObject(rs256, 'RS256', {});
    expectShown(
      await authorize({ client_id: rs256.client.client_id, request: object, request_uri: `${documentsUrl}/ok` }),
      'invalid_request',
    );
  });

  it('S09: a request_uri the client did not register is not fetched', async () => {
    const before = fetches;
    expectShown(await authorize({ client_id: rs256.client.client_id, request_uri: `${documentsUrl}/ok?x=1` }), 'invalid_request_uri');
    expect(fetches).toBe(before);
  });

  it('S09: a registered request_uri that redirects or is missing', async () => {
    expectShown(await authorize({ client_id: rs256.client.client_id, request_uri: `${documentsUrl}/redirect` }), 'invalid_request_uri');
    expectShown(await authorize({ client_id: rs256.client.client_id, request_uri: `${documentsUrl}/missing` }), 'invalid_request_uri');
  });

  it('S09: a registered request_uri on a private address is never fetched while private networks are off (the default)', async () => {
    served.set('/ok', await signedObject(rs256, 'RS256', {}));
    const guarded = await bootApp({ ISSUER_URL: issuer }, { databaseUrl: app.databaseUrl });
    try {
      const before = fetches;
      expectShown(
        await authorize({ client_id: rs256.client.client_id, request_uri: `${documentsUrl}/ok` }, guarded),
        'invalid_request_uri',
      );
      expect(fetches).toBe(before);
    } finally {
      await guarded.close();
    }
  });
});

describe('request_uri and unsigned objects', () => {
  it('fetches a registered request_uri and uses its object, claims overriding the query', async () => {
    const signer = await signingClient('ES256', { request_uris: [`${documentsUrl}/override`] });
    served.set('/override', await signedObject(signer, 'ES256', { scope: 'openid', state: 'state-from-object' }));
    const { location, consentRequest } = await userAuthorizes({
      client_id: signer.client.client_id,
      response_type: 'code',
      redirect_uri: 'https://ignored.example/cb',
      scope: 'openid offline_access',
      state: 'state-from-query',
      request_uri: `${documentsUrl}/override`,
    });
    expect(location.startsWith(`${CALLBACK}?`)).toBe(true);
    expect(responseParams(location).get('state')).toBe('state-from-object');
    expect(consentRequest['requested_scope']).toEqual(['openid']);
  });

  it('accepts alg none only from a client that registered none', async () => {
    const client = await registerClient(app, { redirect_uris: [CALLBACK], request_object_signing_alg: 'none' });
    const unsigned = new UnsecuredJWT({
      client_id: client.client_id,
      response_type: 'code',
      redirect_uri: CALLBACK,
      scope: 'openid',
      state: 'state-unsigned-1',
    }).encode();
    const { location } = await userAuthorizes({ client_id: client.client_id, request: unsigned });
    expect(responseParams(location).get('state')).toBe('state-unsigned-1');
    expect(responseParams(location).get('code')).not.toBeNull();
  });
});

describe('the claims parameter', () => {
  it('reaches the consent app, and each granted claim goes where it was asked for', async () => {
    const client = await registerClient(app, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'client_secret_basic' });
    const config = await discover(client);
    expect(config.serverMetadata().claims_parameter_supported).toBe(true);
    const claims = {
      id_token: { email: { essential: true }, acr: { values: ['urn:mace:incommon:iap:silver'] } },
      userinfo: { name: null, picture: { essential: false } },
    };
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid', state, claims: JSON.stringify(claims) });
    const { location, consentRequest } = await userAuthorizes(Object.fromEntries(url.searchParams), {
      grant_scope: ['openid'],
      session: { id_token: { email: 'alice@example.com', name: 'Alice', nickname: 'al' } },
    });
    expect((consentRequest['oidc_context'] as { claims: unknown }).claims).toEqual(claims);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(location), { expectedState: state });
    const idToken = tokens.claims()!;
    expect(idToken['email']).toBe('alice@example.com');
    expect(idToken['name']).toBeUndefined();
    expect(idToken['nickname']).toBe('al');
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, 'alice');
    expect(userinfo['name']).toBe('Alice');
    expect(userinfo['email']).toBeUndefined();
    expect(userinfo['nickname']).toBe('al');
  });

  it.each([
    ['not JSON', '{'],
    ['not an object', '[]'],
    ['a member that is not an object', '{"id_token":"email"}'],
    ['an entry that is neither null nor an object', '{"userinfo":{"email":true}}'],
    ['essential that is not a boolean', '{"userinfo":{"email":{"essential":"yes"}}}'],
  ])('refuses %s with invalid_request, sent to the client', async (_name, value) => {
    const client = await registerClient(app, { redirect_uris: [CALLBACK] });
    const response = await authorize({
      client_id: client.client_id,
      response_type: 'code',
      redirect_uri: CALLBACK,
      scope: 'openid',
      state: 'state-0123456789',
      claims: value,
    });
    expect(response.status, response.text).toBe(302);
    expect(responseParams(response.headers.get('location')!).get('error')).toBe('invalid_request');
    expect(response.headers.getSetCookie()).toEqual([]);
  });
});

describe('redirect_uri in OpenID Connect requests', () => {
  it('refuses an openid request without redirect_uri although the client registered exactly one, and sends it nowhere', async () => {
    const client = await registerClient(app, { redirect_uris: [CALLBACK] });
    const query = { client_id: client.client_id, response_type: 'code', scope: 'openid', state: 'state-0123456789' };
    expectShown(await authorize(query), 'invalid_request');
    // A plain OAuth 2.0 request may still rely on the single registered redirect URI.
    const oauthOnly = await authorize({ ...query, scope: 'offline_access' });
    expect(oauthOnly.status, oauthOnly.text).toBe(302);
    expect(queryParam(oauthOnly.headers.get('location')!, 'login_challenge')).not.toBeNull();
  });
});
