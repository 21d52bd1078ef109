import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../../support/app.js';
import { createClient, expectOAuthError, token } from '../../support/oauth.js';
import { freePort } from '../../support/process.js';

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

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
