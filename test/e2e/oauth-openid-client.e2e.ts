import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/common/net/free-port.js';
import { bootApp, type TestApp } from '../support/app.js';
import { OAuthBrowser, registerClient, type RegisteredClient } from '../support/oauth-browser.js';

/**
 * The whole provider against panva's openid-client (OpenID Certified relying party): discovery, the
 * code flow with PKCE, refresh, userinfo and revocation, hybrid with form_post and implicit, with the
 * library checking every response and ID token itself (signatures included: non-repudiation checks).
 * The login and consent apps are played through the admin API.
 */

const CALLBACK = 'https://rp.example/callback';

let app: TestApp;
let issuer: string;
let client: RegisteredClient;

beforeAll(async () => {
  // The issuer must be the URL the library reaches: a fixed port, known before the boot.
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  app = await bootApp({ PUBLIC_PORT: String(port), ISSUER_URL: issuer });
  client = await registerClient(app, {
    redirect_uris: [CALLBACK],
    grant_types: ['authorization_code', 'refresh_token', 'implicit'],
    response_types: ['code', 'code id_token', 'id_token'],
    scope: 'openid offline_access profile',
    token_endpoint_auth_method: 'client_secret_basic',
  });
});

afterAll(async () => {
  await app?.close();
});

/** Discovery over plain http (the tests' issuer), with ID token signatures verified against the JWKS. */
function discover(...extra: Array<(config: oidc.Configuration) => void>): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(issuer), client.client_id, undefined, oidc.ClientSecretBasic(client.client_secret!), {
    execute: [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks, ...extra],
  });
}

/** The user's part: the browser goes through login and consent; returns what comes back to the client. */
async function userAuthorizes(url: URL, subject: string, scope: string[]): Promise<Response> {
  expect(url.origin).toBe(issuer);
  const browser = new OAuthBrowser(app);
  const loginLocation = await browser.authorize(Object.fromEntries(url.searchParams));
  const consentLocation = await browser.follow(await browser.acceptLogin(loginLocation, { subject }));
  const redirectTo = await browser.acceptConsent(consentLocation, {
    grant_scope: scope,
    session: { id_token: { name: 'Alice Example' } },
  });
  const response = await browser.get(redirectTo);
  return new Response(response.text, { status: response.status, headers: response.headers });
}

/** The hidden inputs of a form_post page, as the browser would submit them. */
function formFields(page: string): URLSearchParams {
  const fields = new URLSearchParams();
  for (const match of page.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"/g)) {
    fields.append(unescapeHtml(match[1]!), unescapeHtml(match[2]!));
  }
  return fields;
}

function unescapeHtml(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_all, entity: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[entity]!,
  );
}

describe('openid-client (certified relying party)', () => {
  it('discovers the provider', async () => {
    const config = await discover();
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(issuer);
    expect(metadata.authorization_endpoint).toBe(`${issuer}/oauth2/auth`);
    expect(metadata.response_types_supported).toContain('code');
  });

  it('runs the code flow with PKCE, then refresh, userinfo and revocation', async () => {
    const config = await discover();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: 'openid offline_access profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });

    const callback = await userAuthorizes(url, 'alice', ['openid', 'offline_access', 'profile']);
    expect(callback.status).toBe(302);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback.headers.get('location')!), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    const claims = tokens.claims()!;
    expect(claims.sub).toBe('alice');
    expect(claims['name']).toBe('Alice Example');
    expect(tokens.refresh_token).toBeTruthy();

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.claims()?.sub).toBe('alice');

    const userinfo = await oidc.fetchUserInfo(config, refreshed.access_token, 'alice');
    expect(userinfo.sub).toBe('alice');

    await oidc.tokenRevocation(config, refreshed.refresh_token!);
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    // Revoking the refresh token took its access tokens: the library sees the 401 and its Bearer challenge.
    const refused = await oidc.fetchUserInfo(config, refreshed.access_token, 'alice').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
    expect(refused).toMatchObject({ status: 401, cause: [{ scheme: 'bearer', parameters: { error: 'invalid_token' } }] });
  });

  it('runs the hybrid flow (code id_token) with form_post', async () => {
    const config = await discover(oidc.useCodeIdTokenResponseType);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid', response_mode: 'form_post', state, nonce });
    expect(url.searchParams.get('response_type')).toBe('code id_token');

    const page = await userAuthorizes(url, 'bob', ['openid']);
    expect(page.status).toBe(200);
    const post = new Request(CALLBACK, { method: 'POST', body: formFields(await page.text()) });
    const tokens = await oidc.authorizationCodeGrant(config, post, { expectedState: state, expectedNonce: nonce });
    expect(tokens.claims()?.sub).toBe('bob');
  });

  it('runs the implicit flow (id_token) in the fragment', async () => {
    const config = await discover(oidc.useIdTokenResponseType);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid', state, nonce });
    const callback = await userAuthorizes(url, 'carol', ['openid']);
    expect(callback.status).toBe(302);
    const claims = await oidc.implicitAuthentication(config, new URL(callback.headers.get('location')!), nonce, { expectedState: state });
    expect(claims.sub).toBe('carol');
  });

  it('receives an authorization error as the library expects it', async () => {
    const config = await discover();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid', state, prompt: 'none' });
    const response = await new OAuthBrowser(app).get(`${url.pathname}${url.search}`);
    expect(response.status).toBe(302);
    await expect(
      oidc.authorizationCodeGrant(config, new URL(response.headers.get('location')!), { expectedState: state }),
    ).rejects.toMatchObject({
      error: 'login_required',
    });
  });
});
