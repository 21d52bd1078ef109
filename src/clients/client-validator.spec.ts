import { exportJWK, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import type { OutboundHttp, OutboundResponse } from '../common/http/outbound-http.js';
import type { OAuth2Config } from '../config/app-config.js';
import { OutboundError, OutboundFailure } from '../common/http/outbound-http.error.js';
import { ClientValidator, checkMetadata } from './client-validator.js';
import { ClientsError } from './clients.errors.js';
import type { CreateClientDto } from './dto/create-client.dto.js';

function refusal(run: () => unknown): { code: string; field: unknown } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ClientsError);
    return { code: (error as ClientsError).code, field: (error as ClientsError).details?.['field'] };
  }
  throw new Error('expected a refusal');
}

async function asyncRefusal(run: () => Promise<unknown>): Promise<{ code: string; field: unknown }> {
  const error = await run().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ClientsError);
  return { code: (error as ClientsError).code, field: (error as ClientsError).details?.['field'] };
}

describe('checkMetadata: defaults', () => {
  it('fills in Hydra defaults for an empty body', () => {
    expect(checkMetadata({})).toMatchObject({
      requestedId: undefined,
      suppliedSecret: undefined,
      tokenEndpointAuthMethod: 'client_secret_basic',
      grantTypes: ['authorization_code'],
      responseTypes: ['code'],
      scope: 'offline_access offline openid',
      subjectType: 'public',
      userinfoSignedResponseAlg: 'none',
      requestObjectSigningAlg: '',
      redirectUris: [],
      metadata: {},
      jwks: undefined,
      frontchannelLogoutSessionRequired: false,
      backchannelLogoutSessionRequired: false,
    });
  });

  it('treats null and empty strings as absent', () => {
    const draft = checkMetadata({ client_id: '', client_secret: null, scope: '', subject_type: null, jwks: null } as CreateClientDto);
    expect(draft).toMatchObject({
      requestedId: undefined,
      suppliedSecret: undefined,
      scope: 'offline_access offline openid',
      subjectType: 'public',
    });
  });

  it('defaults response_types to none when the client cannot use the code flow, and keeps an explicit empty list', () => {
    expect(checkMetadata({ grant_types: ['client_credentials'] }).responseTypes).toEqual([]);
    expect(checkMetadata({ response_types: [] }).responseTypes).toEqual([]);
  });

  it('stores CORS origins as origins and scopes with single spaces', () => {
    const draft = checkMetadata({ allowed_cors_origins: ['https://App.Example:443/'], scope: ' openid   profile ' });
    expect(draft.allowedCorsOrigins).toEqual(['https://app.example']);
    expect(draft.scope).toBe('openid profile');
  });
});

describe('checkMetadata: rules', () => {
  it.each<[string, CreateClientDto, string, string]>([
    ['fragment in a redirect URI', { redirect_uris: ['https://a.example/#x'] }, 'invalid_redirect_uri', 'redirect_uris'],
    ['relative redirect URI', { redirect_uris: ['cb'] }, 'invalid_redirect_uri', 'redirect_uris'],
    ['http redirect URI off loopback', { redirect_uris: ['http://10.0.0.1/cb'] }, 'invalid_redirect_uri', 'redirect_uris'],
    ['data: redirect URI', { redirect_uris: ['data:text/html,hi'] }, 'invalid_redirect_uri', 'redirect_uris'],
    ['redirect URI that does not parse', { redirect_uris: ['https://'] }, 'invalid_redirect_uri', 'redirect_uris'],
    [
      'post-logout URI with another scheme',
      { redirect_uris: ['https://a.example/cb'], post_logout_redirect_uris: ['http://a.example/bye'] },
      'invalid_client_metadata',
      'post_logout_redirect_uris',
    ],
    [
      'post-logout URI without redirect URIs',
      { post_logout_redirect_uris: ['https://a.example/bye'] },
      'invalid_client_metadata',
      'post_logout_redirect_uris',
    ],
    ['subject type', { subject_type: 'Public' }, 'invalid_client_metadata', 'subject_type'],
    ['pairwise without redirect URIs or sector URI', { subject_type: 'pairwise' }, 'invalid_client_metadata', 'subject_type'],
    ['sector URI over http', { sector_identifier_uri: 'http://a.example/s.json' }, 'invalid_client_metadata', 'sector_identifier_uri'],
    ['sector URI not a URL', { sector_identifier_uri: 'sector.json' }, 'invalid_client_metadata', 'sector_identifier_uri'],
    ['auth method', { token_endpoint_auth_method: 'tls_client_auth' }, 'invalid_client_metadata', 'token_endpoint_auth_method'],
    [
      'private_key_jwt without keys',
      { token_endpoint_auth_method: 'private_key_jwt' },
      'invalid_client_metadata',
      'token_endpoint_auth_method',
    ],
    ['jwks with jwks_uri', { jwks: { keys: [] }, jwks_uri: 'https://a.example/jwks' }, 'invalid_client_metadata', 'jwks'],
    ['jwks without keys', { jwks: { keys: 'nope' } }, 'invalid_client_metadata', 'jwks'],
    ['secret of 5 characters', { client_secret: '12345' }, 'invalid_client_metadata', 'client_secret'],
    [
      'secret on a public client',
      { client_secret: '123456', token_endpoint_auth_method: 'none' },
      'invalid_client_metadata',
      'client_secret',
    ],
    ['userinfo alg', { userinfo_signed_response_alg: 'RS384' }, 'invalid_client_metadata', 'userinfo_signed_response_alg'],
    ['request object alg HS256', { request_object_signing_alg: 'HS256' }, 'invalid_client_metadata', 'request_object_signing_alg'],
    ['assertion alg', { token_endpoint_auth_signing_alg: 'HS512' }, 'invalid_client_metadata', 'token_endpoint_auth_signing_alg'],
    ['CORS origin with a fragment', { allowed_cors_origins: ['https://a.example#x'] }, 'invalid_client_metadata', 'allowed_cors_origins'],
    ['CORS wildcard', { allowed_cors_origins: ['*'] }, 'invalid_client_metadata', 'allowed_cors_origins'],
    ['grant type', { grant_types: ['urn:ietf:params:oauth:grant-type:device_code'] }, 'invalid_client_metadata', 'grant_types'],
    ['duplicate response type part', { response_types: ['code code'] }, 'invalid_client_metadata', 'response_types'],
    ['implicit response type without the grant', { response_types: ['id_token'] }, 'invalid_client_metadata', 'response_types'],
    [
      'code without the grant',
      { grant_types: ['client_credentials'], response_types: ['code'] },
      'invalid_client_metadata',
      'response_types',
    ],
    ['jwks_uri with a fragment', { jwks_uri: 'https://a.example/jwks#k' }, 'invalid_client_metadata', 'jwks_uri'],
    ['backchannel logout over ftp', { backchannel_logout_uri: 'ftp://a.example/' }, 'invalid_client_metadata', 'backchannel_logout_uri'],
    ['request URI not a URL', { request_uris: ['request.jwt'] }, 'invalid_client_metadata', 'request_uris'],
    ['logo URI with javascript:', { logo_uri: 'javascript:alert(1)' }, 'invalid_client_metadata', 'logo_uri'],
    ['client_id with a control character', { client_id: 'a\nb' }, 'invalid_client_metadata', 'client_id'],
    ['empty scope token list', { scope: '   ' }, 'invalid_client_metadata', 'scope'],
    ['scope with a quote', { scope: 'openid "x"' }, 'invalid_client_metadata', 'scope'],
  ])('refuses %s', (_name, input, code, field) => {
    expect(refusal(() => checkMetadata(input))).toEqual({ code, field });
  });

  it('accepts loopback http, custom schemes, hybrid flows, pairwise on one host', () => {
    const draft = checkMetadata({
      redirect_uris: ['http://127.0.0.1:1234/cb', 'http://[::1]/cb', 'http://localhost/cb', 'com.example.app:/cb'],
      grant_types: ['authorization_code', 'implicit', 'refresh_token'],
      response_types: ['code id_token token', 'id_token', 'token'],
      post_logout_redirect_uris: ['http://127.0.0.1:1234/bye'],
    });
    expect(draft.redirectUris).toHaveLength(4);
    expect(checkMetadata({ subject_type: 'pairwise', redirect_uris: ['https://a.example/1', 'https://a.example/2'] }).subjectType).toBe(
      'pairwise',
    );
  });
});

describe('ClientValidator', () => {
  const responses = new Map<string, OutboundResponse | OutboundError>();
  const checked: string[] = [];
  const outbound = {
    get: (url: string) => {
      const answer = responses.get(url);
      if (answer === undefined) return Promise.reject(new OutboundError(OutboundFailure.Network, 'no such fixture'));
      return answer instanceof OutboundError ? Promise.reject(answer) : Promise.resolve(answer);
    },
    assertPublicDestination: (url: string) => {
      checked.push(url);
      return url.includes('private') ? Promise.reject(new OutboundError(OutboundFailure.ForbiddenAddress, 'private')) : Promise.resolve();
    },
  } as unknown as OutboundHttp;
  const supporting = (subjectTypes: string[]): OAuth2Config => ({ subjectTypes }) as unknown as OAuth2Config;
  const validator = new ClientValidator(outbound, supporting(['public', 'pairwise']));
  const json = (value: unknown, status = 200): OutboundResponse => ({ status, headers: {}, body: Buffer.from(JSON.stringify(value)) });
  const redirects = ['https://a.example/cb', 'https://b.example/cb'];
  const sector = (uri: string) => ({ subject_type: 'pairwise', sector_identifier_uri: uri, redirect_uris: redirects });

  it('accepts a sector document that lists every redirect URI (and may list more)', async () => {
    responses.set('https://s.example/ok', json([...redirects, 'https://c.example/cb']));
    await expect(validator.validate(sector('https://s.example/ok'))).resolves.toMatchObject({ subjectType: 'pairwise' });
  });

  it.each<[string, OutboundResponse | OutboundError]>([
    ['a missing redirect URI', json([redirects[0]])],
    ['an object', json({ redirect_uris: redirects })],
    ['an empty array', json([])],
    ['an array of non-strings', json([1, 2])],
    ['a non-200 status', json(redirects, 404)],
    ['a body that is not JSON', { status: 200, headers: {}, body: Buffer.from('<html>') }],
    ['a body over the cap', new OutboundError(OutboundFailure.TooLarge, 'too large')],
    ['a private address', new OutboundError(OutboundFailure.ForbiddenAddress, 'private')],
    ['a timeout', new OutboundError(OutboundFailure.Timeout, 'slow')],
  ])('refuses a sector document with %s', async (name, answer) => {
    const uri = `https://s.example/${encodeURIComponent(name)}`;
    responses.set(uri, answer);
    expect(await asyncRefusal(() => validator.validate(sector(uri)))).toEqual({
      code: 'invalid_client_metadata',
      field: 'sector_identifier_uri',
    });
  });

  it('checks the addresses of jwks_uri, backchannel_logout_uri and every request URI', async () => {
    checked.length = 0;
    await validator.validate({
      jwks_uri: 'https://keys.example/jwks',
      backchannel_logout_uri: 'https://app.example/logout',
      request_uris: ['https://app.example/r1', 'https://app.example/r2'],
    });
    expect(checked).toEqual([
      'https://keys.example/jwks',
      'https://app.example/logout',
      'https://app.example/r1',
      'https://app.example/r2',
    ]);
    const cases: Array<[string, CreateClientDto]> = [
      ['jwks_uri', { jwks_uri: 'https://private.example/jwks' }],
      ['backchannel_logout_uri', { backchannel_logout_uri: 'https://private.example/logout' }],
      ['request_uris', { request_uris: ['https://app.example/ok', 'https://private.example/r'] }],
    ];
    for (const [field, input] of cases) {
      expect(await asyncRefusal(() => validator.validate(input))).toEqual({ code: 'invalid_client_metadata', field });
    }
  });

  it('imports public keys of every kind, with or without alg, and refuses private or broken ones', async () => {
    const keys = [];
    for (const alg of ['RS256', 'PS256', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const) {
      const { publicKey } = await generateKeyPair(alg, { extractable: true });
      const { alg: _drop, ...withoutAlg } = { ...(await exportJWK(publicKey)), alg };
      keys.push(withoutAlg, { ...withoutAlg, alg });
    }
    await expect(validator.validate({ token_endpoint_auth_method: 'private_key_jwt', jwks: { keys } })).resolves.toMatchObject({
      tokenEndpointAuthMethod: 'private_key_jwt',
    });
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    for (const bad of [
      privateJwk,
      { kty: 'oct', k: 'AAAA' },
      { kty: 'RSA', n: 'AQAB', e: 'AQAB', alg: 'RS256' },
      { kty: 'RSA', n: Buffer.alloc(128, 0xff).toString('base64url'), e: 'AQAB', alg: 'RS256' },
      { kty: 'EC', crv: 'P-999', x: 'AA', y: 'AA' },
      { kty: 'nope' },
    ]) {
      expect(await asyncRefusal(() => validator.validate({ jwks: { keys: [bad] } }))).toEqual({
        code: 'invalid_client_metadata',
        field: 'jwks',
      });
    }
    expect(await asyncRefusal(() => validator.validate({ token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [] } }))).toEqual({
      code: 'invalid_client_metadata',
      field: 'jwks',
    });
  });

  it('refuses a public key carrying any private JWK member, whatever the key type', async () => {
    const publicKeys = await Promise.all(
      (['RS256', 'ES256', 'EdDSA'] as const).map(async (alg) => ({ ...(await exportJWK((await generateKeyPair(alg)).publicKey)), alg })),
    );
    for (const key of publicKeys) {
      await expect(validator.validate({ jwks: { keys: [key] } })).resolves.toBeDefined();
      for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k']) {
        const value = member === 'oth' ? [{ r: 'AQAB', d: 'AQAB', t: 'AQAB' }] : 'AQAB';
        expect(await asyncRefusal(() => validator.validate({ jwks: { keys: [{ ...key, [member]: value }] } })), member).toEqual({
          code: 'invalid_client_metadata',
          field: 'jwks',
        });
      }
    }
  });

  it('registers only the subject types the server supports (OIDC_SUBJECT_TYPES), defaulting to public when it is one', async () => {
    const publicOnly = new ClientValidator(outbound, supporting(['public']));
    expect(await asyncRefusal(() => publicOnly.validate({ subject_type: 'pairwise', redirect_uris: [redirects[0]!] }))).toEqual({
      code: 'invalid_client_metadata',
      field: 'subject_type',
    });
    await expect(publicOnly.validate({})).resolves.toMatchObject({ subjectType: 'public' });
    const pairwiseOnly = new ClientValidator(outbound, supporting(['pairwise']));
    await expect(pairwiseOnly.validate({ redirect_uris: [redirects[0]!] })).resolves.toMatchObject({ subjectType: 'pairwise' });
    expect(await asyncRefusal(() => pairwiseOnly.validate({ subject_type: 'public' }))).toEqual({
      code: 'invalid_client_metadata',
      field: 'subject_type',
    });
  });
});
