import { createHash, randomBytes } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import { authorize, basic, createClient, expectOAuthError, token, type WireClient, type WireTokenResponse } from '../support/oauth.js';
import { expireAccessToken, expireAuthorizationCode, expireRefreshToken } from '../support/time-travel.js';

/**
 * The authorization_code and refresh_token grants, from the authorization response that token issuing
 * hands to the authorize endpoint (AuthorizeResponseIssuer) to the token endpoint, /userinfo and
 * introspection: code single use, PKCE, refresh rotation and reuse, the
 * ID token and the bearer checks of /userinfo.
 */
let app: TestApp;
let client: WireClient;
const REDIRECTS = ['https://app.example/cb', 'https://app.example/other'];

beforeAll(async () => {
  app = await bootApp({ OIDC_SUBJECT_TYPES: 'public,pairwise' });
  client = await createClient(app, {
    redirect_uris: REDIRECTS,
    grant_types: ['authorization_code', 'refresh_token', 'implicit'],
    response_types: ['code', 'code id_token', 'id_token', 'token id_token', 'token', 'token id_token code'],
    scope: 'openid offline_access offline profile',
  });
});

afterAll(async () => {
  await app?.close();
});

const auth = (): Record<string, string> => basic(client.client_id, client.client_secret!);

async function codeFor(options: Parameters<typeof authorize>[2] = {}): Promise<string> {
  const { parameters } = await authorize(app, client.client_id, options);
  return parameters['code']!;
}

function redeem(code: string, extra: Record<string, string> = {}, headers = auth()) {
  return token(app, { grant_type: 'authorization_code', code, redirect_uri: REDIRECTS[0]!, ...extra }, headers);
}

function refresh(refreshToken: string, extra: Record<string, string> = {}, headers = auth()) {
  return token(app, { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra }, headers);
}

async function verifyIdToken(idToken: string): Promise<JWTPayload> {
  const jwks = await app.public.get<JSONWebKeySet>('/.well-known/jwks.json');
  const { payload } = await jwtVerify(idToken, createLocalJWKSet(jwks.body), {
    issuer: app.running.config.urls.issuer,
    audience: client.client_id,
  });
  return payload;
}

function userinfo(accessToken: string) {
  return app.public.get<Record<string, unknown>>('/userinfo', { headers: { authorization: `Bearer ${accessToken}` } });
}

async function introspect(value: string): Promise<{ active: boolean; [key: string]: unknown }> {
  const response = await app.admin.post<{ active: boolean }>('/oauth2/introspect', { form: { token: value } });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

function halfHash(value: string): string {
  return createHash('sha256').update(value).digest().subarray(0, 16).toString('base64url');
}

describe('authorization_code', () => {
  it('exchanges a code for access, refresh and ID tokens', async () => {
    const code = await codeFor({ nonce: 'n-0S6_WzA2Mj' });
    expect(code).toMatch(/^lk_ac_[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    const response = await redeem(code);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'openid offline_access' });
    expect(response.body.refresh_token).toMatch(/^lk_rt_/);
    const claims = await verifyIdToken(response.body.id_token!);
    expect(claims).toMatchObject({ nonce: 'n-0S6_WzA2Mj', acr: 'urn:acr:password', amr: ['pwd'], email: 'user@example.com' });
    expect(claims['at_hash']).toBe(halfHash(response.body.access_token));
  });

  it('S40: the ID token has aud = [client_id], the echoed nonce, a published kid, iss = discovery issuer, no key headers', async () => {
    const response = await redeem(await codeFor({ nonce: 'exact nonce ✓' }));
    const header = decodeProtectedHeader(response.body.id_token!);
    expect(header.alg).not.toBe('none');
    expect(header).not.toHaveProperty('jku');
    expect(header).not.toHaveProperty('x5u');
    expect(header).not.toHaveProperty('jwk');
    const jwks = await app.public.get<{ keys: Array<{ kid: string }> }>('/.well-known/jwks.json');
    expect(jwks.body.keys.map((key) => key.kid)).toContain(header.kid);
    const discovery = await app.public.get<{ issuer: string }>('/.well-known/openid-configuration');
    const claims = await verifyIdToken(response.body.id_token!);
    expect(claims.aud).toEqual([client.client_id]);
    expect(claims.nonce).toBe('exact nonce ✓');
    expect(claims.iss).toBe(discovery.body.issuer);
  });

  it('default lifetimes: code 10 min, access token 1 h, refresh token 720 h, ID token 1 h', async () => {
    const code = await codeFor();
    const [row] = await queryDatabase<{ seconds: number }>(
      app.databaseUrl,
      `SELECT extract(epoch FROM expires_at - issued_at)::int AS seconds FROM oauth2_authorization_codes WHERE signature = $1`,
      [code.split('.')[1]],
    );
    expect(row!.seconds).toBe(600);
    const response = await redeem(code);
    expect(response.body.expires_in).toBe(3600);
    const idToken = await verifyIdToken(response.body.id_token!);
    expect(idToken.exp! - idToken.iat!).toBe(3600);
    const refreshToken = await introspect(response.body.refresh_token!);
    expect((refreshToken['exp'] as number) - (refreshToken['iat'] as number)).toBe(720 * 3600);
  });

  it('signs with the newest key of openid.id-token; ID tokens signed before a rotation still verify', async () => {
    const before = (await redeem(await codeFor())).body.id_token!;
    const generated = await app.admin.post<{ keys: Array<{ kid: string }> }>('/keys/openid.id-token', {
      json: { alg: 'RS256', use: 'sig' },
    });
    expect(generated.status, generated.text).toBe(201);
    const after = (await redeem(await codeFor())).body.id_token!;
    const newKid = decodeProtectedHeader(after).kid;
    expect(newKid).not.toBe(decodeProtectedHeader(before).kid);
    expect(generated.body.keys.map((key) => key.kid)).toContain(newKid);
    await verifyIdToken(before);
    await verifyIdToken(after);
  });

  it('S19: a second redemption fails and revokes the tokens of the first (userinfo, refresh, introspection)', async () => {
    const code = await codeFor();
    const first = await redeem(code);
    expect(first.status).toBe(200);
    expect((await userinfo(first.body.access_token)).status).toBe(200);
    expectOAuthError(await redeem(code), 400, 'invalid_grant');
    expect((await userinfo(first.body.access_token)).status).toBe(401);
    expectOAuthError(await refresh(first.body.refresh_token!), 400, 'invalid_grant');
    expect(await introspect(first.body.access_token)).toEqual({ active: false });
  });

  it('S20: of parallel redemptions of one code exactly one succeeds', async () => {
    const code = await codeFor();
    const responses = await Promise.all(Array.from({ length: 6 }, () => redeem(code)));
    expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
    for (const response of responses.filter((candidate) => candidate.status !== 200)) expectOAuthError(response, 400, 'invalid_grant');
  });

  it('S21: a code of client A redeemed by client B, and a changed or missing redirect_uri, are invalid_grant', async () => {
    const other = await createClient(app, { redirect_uris: REDIRECTS, grant_types: ['authorization_code'], response_types: ['code'] });
    expectOAuthError(await redeem(await codeFor(), {}, basic(other.client_id, other.client_secret!)), 400, 'invalid_grant');
    expectOAuthError(await redeem(await codeFor(), { redirect_uri: REDIRECTS[1]! }), 400, 'invalid_grant');
    const code = await codeFor();
    expectOAuthError(await token(app, { grant_type: 'authorization_code', code }, auth()), 400, 'invalid_grant');
  });

  it('S22: an expired code is invalid_grant', async () => {
    const code = await codeFor();
    const signature = code.split('.')[1]!;
    await expireAuthorizationCode(app, signature, '1 second');
    expectOAuthError(await redeem(code), 400, 'invalid_grant');
  });

  it('a forged or garbled code is invalid_grant', async () => {
    const code = await codeFor();
    expectOAuthError(await redeem(`${code.slice(0, -2)}xx`), 400, 'invalid_grant');
    expectOAuthError(await redeem('not-a-code'), 400, 'invalid_grant');
  });

  it('S23: a code_verifier for a code issued without a challenge is refused (PKCE downgrade)', async () => {
    expectOAuthError(await redeem(await codeFor(), { code_verifier: 'a'.repeat(43) }), 400, 'invalid_grant');
  });

  it('S24: with a challenge, the verifier is required, must match and must be well formed', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    for (const bad of [undefined, randomBytes(32).toString('base64url'), 'a'.repeat(42), 'a'.repeat(129), `${'a'.repeat(42)}!`]) {
      const code = await codeFor({ codeChallenge: challenge });
      expectOAuthError(await redeem(code, bad === undefined ? {} : { code_verifier: bad }), 400, 'invalid_grant');
    }
    const ok = await redeem(await codeFor({ codeChallenge: challenge }), { code_verifier: verifier });
    expect(ok.status, ok.text).toBe(200);
  });

  it('a public client must use PKCE, and redeems with client_id alone', async () => {
    const spa = await createClient(app, {
      redirect_uris: ['https://spa.example/cb'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const withPkce = (await authorize(app, spa.client_id, { scope: ['openid'], codeChallenge: challenge })).parameters['code']!;
    const ok = await token(app, { grant_type: 'authorization_code', code: withPkce, code_verifier: verifier, client_id: spa.client_id });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).not.toHaveProperty('refresh_token');
    const without = (await authorize(app, spa.client_id, { scope: ['openid'] })).parameters['code']!;
    expectOAuthError(await token(app, { grant_type: 'authorization_code', code: without, client_id: spa.client_id }), 400, 'invalid_grant');
  });

  it('no refresh token without an offline scope, no ID token without openid', async () => {
    const response = await redeem(await codeFor({ scope: ['profile'] }));
    expect(response.status, response.text).toBe(200);
    expect(response.body).not.toHaveProperty('refresh_token');
    expect(response.body).not.toHaveProperty('id_token');
    expect(response.body.scope).toBe('profile');
  });
});

describe('refresh_token', () => {
  async function tokens(): Promise<WireTokenResponse> {
    const response = await redeem(await codeFor({ nonce: 'nonce-1' }));
    expect(response.status, response.text).toBe(200);
    return response.body;
  }

  it('rotates: a new refresh token, a new access token, a new ID token without nonce, the old access token revoked', async () => {
    const first = await tokens();
    const second = await refresh(first.refresh_token!);
    expect(second.status, second.text).toBe(200);
    expect(second.body.refresh_token).toMatch(/^lk_rt_/);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    const before = await verifyIdToken(first.id_token!);
    const after = await verifyIdToken(second.body.id_token!);
    expect(after.sub).toBe(before.sub);
    expect(after.auth_time).toBe(before.auth_time);
    expect(after).not.toHaveProperty('nonce');
    expect((await userinfo(first.access_token)).status).toBe(401);
    expect((await userinfo(second.body.access_token)).status).toBe(200);
  });

  it('S25: replaying a rotated refresh token revokes the whole family', async () => {
    const first = await tokens();
    const second = (await refresh(first.refresh_token!)).body;
    expectOAuthError(await refresh(first.refresh_token!), 400, 'invalid_grant');
    expectOAuthError(await refresh(second.refresh_token!), 400, 'invalid_grant');
    expect((await userinfo(second.access_token)).status).toBe(401);
    expect(await introspect(second.refresh_token!)).toEqual({ active: false });
  });

  it('S26: of two concurrent refreshes with one token at most one succeeds', async () => {
    const first = await tokens();
    const responses = await Promise.all([refresh(first.refresh_token!), refresh(first.refresh_token!)]);
    expect(responses.filter((response) => response.status === 200).length).toBeLessThanOrEqual(1);
    for (const response of responses.filter((candidate) => candidate.status !== 200)) expectOAuthError(response, 400, 'invalid_grant');
  });

  it('S27: a refresh token of client A presented by client B is invalid_grant; a wider scope is invalid_scope', async () => {
    const first = await tokens();
    const other = await createClient(app, {
      redirect_uris: REDIRECTS,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    expectOAuthError(await refresh(first.refresh_token!, {}, basic(other.client_id, other.client_secret!)), 400, 'invalid_grant');
    expectOAuthError(await refresh(first.refresh_token!, { scope: 'openid profile' }), 400, 'invalid_scope');
    const narrowed = await refresh(first.refresh_token!, { scope: 'openid' });
    expect(narrowed.status, narrowed.text).toBe(200);
    expect(narrowed.body.scope).toBe('openid');
  });

  it('an expired refresh token is invalid_grant', async () => {
    const first = await tokens();
    await expireRefreshToken(app, first.refresh_token!.split('.')[1], '1 second');
    expectOAuthError(await refresh(first.refresh_token!), 400, 'invalid_grant');
  });
});

describe('authorization responses (implicit and hybrid)', () => {
  it('implicit token id_token: access token, c_hash-free ID token with at_hash and nonce', async () => {
    const { parameters } = await authorize(app, client.client_id, { responseTypes: ['token', 'id_token'], nonce: 'implicit-nonce' });
    expect(parameters).toMatchObject({ token_type: 'bearer', expires_in: '3600', scope: 'openid offline_access' });
    expect(parameters).not.toHaveProperty('code');
    const claims = await verifyIdToken(parameters['id_token']!);
    expect(claims).toMatchObject({ nonce: 'implicit-nonce', at_hash: halfHash(parameters['access_token']!) });
    expect(claims).not.toHaveProperty('c_hash');
    expect((await userinfo(parameters['access_token']!)).status).toBe(200);
  });

  it('hybrid code id_token token: c_hash and at_hash; replaying the code revokes the front-channel access token', async () => {
    const { parameters } = await authorize(app, client.client_id, { responseTypes: ['code', 'id_token', 'token'], nonce: 'hybrid' });
    const claims = await verifyIdToken(parameters['id_token']!);
    expect(claims['c_hash']).toBe(halfHash(parameters['code']!));
    expect(claims['at_hash']).toBe(halfHash(parameters['access_token']!));
    expect((await redeem(parameters['code']!)).status).toBe(200);
    expectOAuthError(await redeem(parameters['code']!), 400, 'invalid_grant');
    expect((await userinfo(parameters['access_token']!)).status).toBe(401);
  });

  it('refuses an ID token when openid was not granted', async () => {
    await expect(authorize(app, client.client_id, { responseTypes: ['id_token'], scope: ['profile'] })).rejects.toMatchObject({
      code: 'invalid_scope',
    });
  });

  it('pairwise clients see a per-sector sub in the ID token and /userinfo; introspection shows both', async () => {
    const pairwise = await createClient(app, {
      redirect_uris: ['https://pairwise.example/cb'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      subject_type: 'pairwise',
    });
    const { parameters } = await authorize(app, pairwise.client_id, { subject: 'alice', scope: ['openid'] });
    const response = await token(
      app,
      { grant_type: 'authorization_code', code: parameters['code']!, redirect_uri: 'https://pairwise.example/cb' },
      basic(pairwise.client_id, pairwise.client_secret!),
    );
    expect(response.status, response.text).toBe(200);
    const { payload } = await jwtVerify(
      response.body.id_token!,
      createLocalJWKSet((await app.public.get<JSONWebKeySet>('/.well-known/jwks.json')).body),
    );
    expect(payload.sub).toMatch(/^[0-9a-f]{64}$/);
    expect((await userinfo(response.body.access_token)).body['sub']).toBe(payload.sub);
    expect(await introspect(response.body.access_token)).toMatchObject({ sub: 'alice', obfuscated_subject: payload.sub });
  });
});

describe('/userinfo', () => {
  it('answers sub and the consent session id_token claims, by header (GET, POST) and by form body', async () => {
    const { access_token: accessToken, id_token: idToken } = (await redeem(await codeFor())).body;
    const sub = (await verifyIdToken(idToken!)).sub;
    const viaGet = await userinfo(accessToken);
    expect(viaGet.status, viaGet.text).toBe(200);
    expect(viaGet.body).toEqual({ sub, email: 'user@example.com', email_verified: true });
    const viaPost = await app.public.post('/userinfo', { headers: { authorization: `Bearer ${accessToken}` } });
    expect(viaPost.status, viaPost.text).toBe(200);
    expect(viaPost.body).toEqual(viaGet.body);
    const viaBody = await app.public.post('/userinfo', { form: { access_token: accessToken } });
    expect(viaBody.status, viaBody.text).toBe(200);
    expect(viaBody.body).toEqual(viaGet.body);
  });

  it('S39: revoked, expired, refresh, ID and query-string tokens get 401 with WWW-Authenticate: Bearer error="invalid_token"', async () => {
    const tokens = (await redeem(await codeFor())).body;
    const expired = (await redeem(await codeFor())).body.access_token;
    await expireAccessToken(app, expired.split('.')[1], '1 second');
    const revoked = (await redeem(await codeFor())).body.access_token;
    expect((await app.public.post('/oauth2/revoke', { form: { token: revoked }, headers: auth() })).status).toBe(200);
    for (const bad of [expired, revoked, tokens.refresh_token!, tokens.id_token!, 'garbage']) {
      const response = await userinfo(bad);
      expectOAuthError(response, 401, 'invalid_token');
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    }
    // RFC 6750 §2.3 tokens in the URI are not read: the request carries no token at all.
    for (const response of [
      await app.public.get(`/userinfo?access_token=${encodeURIComponent(tokens.access_token)}`),
      await app.public.get('/userinfo'),
      await app.public.get('/userinfo', { headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` } }),
    ]) {
      expectOAuthError(response, 401, 'invalid_token');
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
    }
  });

  it('a token in the header and in the body at once is invalid_request', async () => {
    const { access_token: accessToken } = (await redeem(await codeFor())).body;
    const response = await app.public.post('/userinfo', {
      form: { access_token: accessToken },
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expectOAuthError(response, 400, 'invalid_request');
  });

  it('answers a signed JWT (application/jwt) to a client registered with userinfo_signed_response_alg RS256', async () => {
    const signed = await createClient(app, {
      redirect_uris: ['https://signed.example/cb'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      userinfo_signed_response_alg: 'RS256',
    });
    const { parameters } = await authorize(app, signed.client_id, { scope: ['openid'] });
    const tokens = await token(
      app,
      { grant_type: 'authorization_code', code: parameters['code']!, redirect_uri: 'https://signed.example/cb' },
      basic(signed.client_id, signed.client_secret!),
    );
    const response = await userinfo(tokens.body.access_token);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/jwt/);
    const jwks = createLocalJWKSet((await app.public.get<JSONWebKeySet>('/.well-known/jwks.json')).body);
    const { payload } = await jwtVerify(response.text, jwks, { issuer: app.running.config.urls.issuer, audience: signed.client_id });
    expect(payload).toMatchObject({ email: 'user@example.com' });
  });

  it('client_credentials tokens answer with the client as sub', async () => {
    const cc = await createClient(app, { grant_types: ['client_credentials'], response_types: [] });
    const issued = await token(app, { grant_type: 'client_credentials' }, basic(cc.client_id, cc.client_secret!));
    expect((await userinfo(issued.body.access_token)).body).toEqual({ sub: cc.client_id });
  });
});

describe('isolation', () => {
  it('deleting a client deletes its codes and tokens', async () => {
    const doomed = await createClient(app, {
      redirect_uris: ['https://doomed.example/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    const { parameters } = await authorize(app, doomed.client_id, { scope: ['openid', 'offline'] });
    const issued = await token(
      app,
      { grant_type: 'authorization_code', code: parameters['code']!, redirect_uri: 'https://doomed.example/cb' },
      basic(doomed.client_id, doomed.client_secret!),
    );
    expect(issued.status, issued.text).toBe(200);
    expect((await app.admin.delete(`/clients/${doomed.client_id}`)).status).toBe(204);
    expect(await introspect(issued.body.access_token)).toEqual({ active: false });
    expect(await introspect(issued.body.refresh_token!)).toEqual({ active: false });
  });

  it('deleting the consent deletes the tokens it granted', async () => {
    const { parameters, grant } = await authorize(app, client.client_id);
    const issued = (await redeem(parameters['code']!)).body;
    await queryDatabase(app.databaseUrl, `DELETE FROM oauth2_consent_requests WHERE id = $1`, [grant.id]);
    expect(await introspect(issued.access_token)).toEqual({ active: false });
  });
});
