import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../../support/app.js';
import { startHttpsFixture, type HttpsFixture } from '../../support/https-fixture.js';
import { createClient, expectOAuthError, token } from '../../support/oauth.js';
import { freePort } from '../../support/process.js';

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/**
 * A client's jwks_uri down, failing or hanging while it authenticates with private_key_jwt: the
 * token request fails as `invalid_client` within the outbound timeout (never a 5xx, never a hang),
 * and works again once the receiver is back. (SMTP down: smtp-down.e2e.ts and courier.e2e.ts;
 * back-channel logout receivers hanging: logout-receiver-hangs.e2e.ts, refusing or unreachable:
 * oauth-logout-channels.e2e.ts.)
 */
describe("a client's jwks_uri down or slow", () => {
  let app: TestApp;
  let fixture: HttpsFixture;
  let privateKey: CryptoKey;
  let publicJwk: JWK;
  let healthy = false;

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    privateKey = pair.privateKey;
    publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    fixture = await startHttpsFixture();
    fixture.route('/hang.json', () => undefined);
    fixture.route('/error.json', (_request, response) => {
      if (healthy) response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
      else response.writeHead(500).end('down');
    });
    fixture.route('/reset.json', (request) => request.socket.destroy());
    const port = await freePort();
    app = await bootApp({
      PUBLIC_PORT: String(port),
      ISSUER_URL: `http://127.0.0.1:${port}`,
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      OUTBOUND_CA_FILE: fixture.caFile,
      OUTBOUND_TIMEOUT_MS: '500',
    });
  });

  afterAll(async () => {
    await app?.close();
    await fixture?.close();
  });

  async function attempt(clientId: string): Promise<Awaited<ReturnType<typeof token>>> {
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({
      iss: clientId,
      sub: clientId,
      aud: `${app.running.config.urls.issuer}/oauth2/token`,
      jti: randomUUID(),
      iat: now,
      exp: now + 300,
    })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .sign(privateKey);
    return token(app, { grant_type: 'client_credentials', client_assertion_type: JWT_BEARER, client_assertion: assertion });
  }

  it.each(['/hang.json', '/error.json', '/reset.json'])('answers invalid_client when %s fails', async (path) => {
    const client = await createClient(app, {
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks_uri: `${fixture.origin}${path}`,
    });
    expectOAuthError(await attempt(client.client_id), 401, 'invalid_client');
  });

  it('authenticates the client once its jwks_uri answers again', async () => {
    healthy = false;
    const client = await createClient(app, {
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks_uri: `${fixture.origin}/error.json`,
    });
    expectOAuthError(await attempt(client.client_id), 401, 'invalid_client');
    healthy = true;
    const response = await attempt(client.client_id);
    expect(response.status, response.text).toBe(200);
  });
});
