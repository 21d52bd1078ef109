import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { expectOAuthError } from '../support/oauth.js';
import { queryParam, registerClient } from '../support/oauth-browser.js';

/** GET /.well-known/openid-configuration: every field of the documented `wellKnown`, each true to what is built. */
let app: TestApp;
const ISSUER = 'https://id.example.com';
const ADMIN = 'https://admin.id.example.com';

beforeAll(async () => {
  app = await bootApp({
    ISSUER_URL: ISSUER,
    ADMIN_URL: ADMIN,
    OIDC_SUBJECT_TYPES: 'public,pairwise',
    OIDC_SUPPORTED_SCOPES: 'profile,email,openid',
    OIDC_SUPPORTED_CLAIMS: 'email,email_verified',
    // An app of one's own: only the configured scopes and claims are listed (the built-in consent's are in ui.e2e.ts).
    URLS_CONSENT: 'https://apps.example/consent',
  });
});

afterAll(async () => {
  await app?.close();
});

describe('GET /.well-known/openid-configuration', () => {
  it('lists the endpoints, methods and capabilities', async () => {
    const response = await app.public.get<Record<string, unknown>>('/.well-known/openid-configuration');
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oauth2/auth`,
      token_endpoint: `${ISSUER}/oauth2/token`,
      jwks_uri: `${ISSUER}/.well-known/jwks.json`,
      userinfo_endpoint: `${ISSUER}/userinfo`,
      revocation_endpoint: `${ISSUER}/oauth2/revoke`,
      end_session_endpoint: `${ISSUER}/oauth2/sessions/logout`,
      introspection_endpoint: `${ADMIN}/oauth2/introspect`,
      scopes_supported: ['openid', 'offline', 'offline_access', 'profile', 'email'],
      claims_supported: ['sub', 'email', 'email_verified'],
      response_types_supported: ['code', 'code id_token', 'id_token', 'token id_token', 'token', 'token id_token code', 'code token'],
      response_modes_supported: ['query', 'fragment', 'form_post'],
      grant_types_supported: ['authorization_code', 'implicit', 'client_credentials', 'refresh_token'],
      subject_types_supported: ['public', 'pairwise'],
      id_token_signing_alg_values_supported: ['RS256'],
      userinfo_signing_alg_values_supported: ['none', 'RS256'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'private_key_jwt', 'none'],
      token_endpoint_auth_signing_alg_values_supported: [
        'RS256',
        'RS384',
        'RS512',
        'PS256',
        'PS384',
        'PS512',
        'ES256',
        'ES384',
        'ES512',
        'EdDSA',
      ],
      revocation_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'private_key_jwt', 'none'],
      introspection_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'private_key_jwt'],
      introspection_endpoint_auth_signing_alg_values_supported: [
        'RS256',
        'RS384',
        'RS512',
        'PS256',
        'PS384',
        'PS512',
        'ES256',
        'ES384',
        'ES512',
        'EdDSA',
      ],
      code_challenge_methods_supported: ['S256'],
      claims_parameter_supported: true,
      request_parameter_supported: true,
      request_uri_parameter_supported: true,
      require_request_uri_registration: true,
      request_object_signing_alg_values_supported: ['none', 'RS256', 'RS512', 'PS256', 'ES256', 'ES384', 'ES512', 'EdDSA'],
      frontchannel_logout_supported: true,
      frontchannel_logout_session_supported: true,
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
    });
  });

  it('S42: advertises PKCE with S256', async () => {
    const response = await app.public.get<{ code_challenge_methods_supported: string[] }>('/.well-known/openid-configuration');
    expect(response.body.code_challenge_methods_supported).toContain('S256');
  });

  it('follows a rotation of the ID-token key to another algorithm', async () => {
    const generated = await app.admin.post('/keys/openid.id-token', { json: { alg: 'ES256', use: 'sig' } });
    expect(generated.status, generated.text).toBe(201);
    const response = await app.public.get<{ id_token_signing_alg_values_supported: string[] }>('/.well-known/openid-configuration');
    expect(response.body.id_token_signing_alg_values_supported).toEqual(['ES256']);
  });

  it('is public only: 404 on the admin listener', async () => {
    expect((await app.admin.get('/.well-known/openid-configuration')).status).toBe(404);
  });
  it('every advertised response type, mode and grant type is served: the authorize endpoint takes each to the login app', async () => {
    const { body: metadata } = await app.public.get<{
      response_types_supported: string[];
      response_modes_supported: string[];
      grant_types_supported: string[];
    }>('/.well-known/openid-configuration');
    const client = await registerClient(app, {
      grant_types: metadata.grant_types_supported,
      response_types: metadata.response_types_supported,
      scope: 'openid',
    });
    for (const responseType of metadata.response_types_supported) {
      for (const mode of metadata.response_modes_supported) {
        // Tokens never travel in the query (OAuth 2.0 Multiple Response Types §2.1): only a code may.
        if (mode === 'query' && responseType !== 'code') continue;
        const query = new URLSearchParams({
          client_id: client.client_id,
          redirect_uri: client.redirect_uris[0]!,
          response_type: responseType,
          response_mode: mode,
          scope: 'openid',
          state: 'state-0123456789',
          nonce: 'nonce-0123456789',
        });
        const response = await app.public.get(`/oauth2/auth?${query.toString()}`);
        expect(response.status, `${responseType} / ${mode}: ${response.text}`).toBe(302);
        expect(queryParam(response.headers.get('location')!, 'login_challenge'), `${responseType} / ${mode}`).not.toBeNull();
      }
    }
  });

  it('subject_types_supported is what registration accepts: pairwise here, refused where only public is configured', async () => {
    const pairwise = await app.admin.post('/clients', {
      json: { subject_type: 'pairwise', redirect_uris: ['https://rp.example/cb'] },
    });
    expect(pairwise.status, pairwise.text).toBe(201);

    const publicOnly = await bootApp();
    try {
      const discovered = await publicOnly.public.get<{ subject_types_supported: string[] }>('/.well-known/openid-configuration');
      expect(discovered.body.subject_types_supported).toEqual(['public']);
      const refused = await publicOnly.admin.post('/clients', {
        json: { subject_type: 'pairwise', redirect_uris: ['https://rp.example/cb'] },
      });
      expectOAuthError(refused, 400, 'invalid_client_metadata');
      expect((refused.body as { details?: { field?: string } }).details?.field).toBe('subject_type');
    } finally {
      await publicOnly.close();
    }
  });
});
