import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, TEST_SYSTEM_SECRET, type TestApp } from '../support/app.js';
import { basic, createClient, token } from '../support/oauth.js';
import { exchangeCode, OAuthBrowser, registerClient, responseParams } from '../support/oauth-browser.js';

/**
 * The audience a token was granted is the `aud` introspection reports, for opaque and JWT access
 * tokens alike, and for a JWT it is the token's own `aud` claim too: a resource server that reads the
 * JWT and one that introspects it must agree on whom it is meant for.
 */
describe.each(['opaque', 'jwt'] as const)('introspected aud, %s access tokens', (strategy) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await bootApp({ OAUTH2_ACCESS_TOKEN_STRATEGY: strategy, SECRETS_SYSTEM: TEST_SYSTEM_SECRET });
  });

  afterAll(async () => {
    await app?.close();
  });

  async function introspectedAud(value: string): Promise<unknown> {
    const response = await app.admin.post<{ active: boolean; aud?: unknown }>('/oauth2/introspect', { form: { token: value } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.active).toBe(true);
    return response.body.aud;
  }

  /** The JWT's own claim agrees with introspection; an opaque token has none to compare. */
  function expectOwnClaim(value: string, aud: readonly string[]): void {
    if (strategy === 'jwt') expect(decodeJwt(value).aud).toEqual(aud);
    else expect(value.split('.')).not.toHaveLength(3);
  }

  it('client_credentials with audience= a client is allowed', async () => {
    const client = await createClient(app, {
      grant_types: ['client_credentials'],
      response_types: [],
      scope: 'read',
      audience: ['https://api.example', 'https://other.example'],
    });
    const issued = await token(
      app,
      { grant_type: 'client_credentials', scope: 'read', audience: 'https://api.example/v1 https://other.example' },
      basic(client.client_id, client.client_secret!),
    );
    expect(issued.status, issued.text).toBe(200);
    const granted = ['https://api.example/v1', 'https://other.example'];
    expect(await introspectedAud(issued.body.access_token)).toEqual(granted);
    expectOwnClaim(issued.body.access_token, granted);
  });

  it('the authorization code flow with an audience the consent granted, and the refreshed token after it', async () => {
    const client = await registerClient(app, { audience: ['https://api.example'] });
    const browser = new OAuthBrowser(app);
    const done = await browser.completeFlow(
      {
        client_id: client.client_id,
        response_type: 'code',
        redirect_uri: client.redirect_uris[0]!,
        scope: 'openid offline_access',
        audience: 'https://api.example',
        state: 'state-0123456789',
      },
      { subject: 'alice' },
      { grant_scope: ['openid', 'offline_access'], grant_access_token_audience: ['https://api.example'] },
    );
    const tokens = await exchangeCode(app, client, responseParams(done).get('code')!);
    expect(tokens.status, tokens.text).toBe(200);
    const access = tokens.body['access_token'] as string;
    expect(await introspectedAud(access)).toEqual(['https://api.example']);
    expectOwnClaim(access, ['https://api.example']);

    const refreshed = await app.public.post<Record<string, unknown>>('/oauth2/token', {
      form: {
        grant_type: 'refresh_token',
        refresh_token: tokens.body['refresh_token'] as string,
        client_id: client.client_id,
        client_secret: client.client_secret!,
      },
    });
    expect(refreshed.status, refreshed.text).toBe(200);
    const next = refreshed.body['access_token'] as string;
    expect(await introspectedAud(next)).toEqual(['https://api.example']);
    expectOwnClaim(next, ['https://api.example']);
  });

  it('no audience granted: none for an opaque token; a JWT names the client itself (RFC 9068), and introspection says so too', async () => {
    const client = await createClient(app, {
      grant_types: ['client_credentials'],
      response_types: [],
      scope: 'read',
      metadata: { introspection: 'audience' },
    });
    const auth = basic(client.client_id, client.client_secret!);
    const issued = await token(app, { grant_type: 'client_credentials', scope: 'read' }, auth);
    expect(issued.status, issued.text).toBe(200);
    const aud = strategy === 'jwt' ? [client.client_id] : [];
    expect(await introspectedAud(issued.body.access_token)).toEqual(aud);
    expectOwnClaim(issued.body.access_token, aud);
    // A resource server may introspect the tokens whose aud names it: the JWT names this client.
    const bySelf = await app.anonymousAdmin.post<{ active: boolean }>('/oauth2/introspect', {
      form: { token: issued.body.access_token },
      headers: auth,
    });
    expect(bySelf.status, bySelf.text).toBe(200);
    expect(bySelf.body.active).toBe(strategy === 'jwt');
  });
});
