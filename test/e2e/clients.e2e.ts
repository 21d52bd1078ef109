import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataSource } from 'typeorm';
import { ClientsService } from '../../src/clients/clients.service.js';
import { dataSourceOptions } from '../../src/database/data-source.options.js';
import { bootApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import type { HttpResponse } from '../support/http.js';

interface WireClient {
  client_id: string;
  client_secret?: string;
  [field: string]: unknown;
}

interface WireError {
  error: string;
  error_description: string;
  status_code: number;
  details?: { field?: string; parameter?: string };
}

let app: TestApp;

beforeAll(async () => {
  // Pairwise clients are registered below: the server must support them (OIDC_SUBJECT_TYPES).
  app = await bootApp({ OIDC_SUBJECT_TYPES: 'public,pairwise' });
});

afterAll(async () => {
  await app.close();
});

async function create(body: Record<string, unknown>): Promise<WireClient> {
  const response = await app.admin.post<WireClient>('/clients', { json: body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

function expectError(response: HttpResponse, status: number, error: string, field?: string): void {
  expect(response.status, response.text).toBe(status);
  const body = response.body as WireError;
  expect(body.error).toBe(error);
  expect(body.status_code).toBe(status);
  if (field !== undefined) {
    expect(body.details?.field).toBe(field);
    expect(body.error_description).toContain(field);
  }
}

function service(): ClientsService {
  return app.running.app.get(ClientsService);
}

async function publicJwk(alg: 'ES256' | 'RS256' = 'ES256'): Promise<Record<string, unknown>> {
  const { publicKey } = await generateKeyPair(alg, { extractable: true });
  return { ...(await exportJWK(publicKey)), kid: `k-${alg}`, use: 'sig', alg };
}

describe('POST /clients', () => {
  it('creates a client with Hydra defaults, a generated UUID and a generated 256-bit secret', async () => {
    const response = await app.admin.post<WireClient>('/clients', { json: { redirect_uris: ['https://app.example/cb'] } });
    expect(response.status).toBe(201);
    const client = response.body;
    expect(client.client_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(client.client_secret).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(client).toMatchObject({
      client_secret_expires_at: 0,
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      scope: 'offline_access offline openid',
      subject_type: 'public',
      userinfo_signed_response_alg: 'none',
      redirect_uris: ['https://app.example/cb'],
      metadata: {},
    });
    expect(Date.parse(client['created_at'] as string)).not.toBeNaN();
    expect(client['updated_at']).toBe(client['created_at']);
    expect(client).not.toHaveProperty('jwks');
  });

  it('stores and returns every field of oAuth2Client', async () => {
    const jwk = await publicJwk();
    const body = {
      client_id: 'every-field',
      client_name: 'Every Field',
      client_secret: 'a-supplied-secret',
      client_uri: 'https://app.example/',
      logo_uri: 'https://app.example/logo.png',
      policy_uri: 'https://app.example/privacy',
      tos_uri: 'https://app.example/tos',
      owner: 'team-a',
      contacts: ['ops@app.example'],
      allowed_cors_origins: ['https://app.example'],
      audience: ['https://api.app.example'],
      grant_types: ['authorization_code', 'refresh_token', 'implicit', 'client_credentials'],
      response_types: ['code', 'code id_token', 'id_token token'],
      redirect_uris: ['https://app.example/cb', 'http://127.0.0.1:8080/cb'],
      post_logout_redirect_uris: ['https://app.example/logged-out'],
      request_uris: ['https://8.8.8.8/request.jwt'],
      scope: 'openid offline profile',
      subject_type: 'pairwise',
      sector_identifier_uri: '',
      token_endpoint_auth_method: 'client_secret_post',
      token_endpoint_auth_signing_alg: 'ES256',
      request_object_signing_alg: 'ES256',
      userinfo_signed_response_alg: 'RS256',
      jwks: { keys: [jwk] },
      metadata: { tier: 'gold', nested: { a: [1, 2] } },
      backchannel_logout_uri: 'https://8.8.4.4/backchannel',
      backchannel_logout_session_required: true,
      frontchannel_logout_uri: 'https://app.example/frontchannel',
      frontchannel_logout_session_required: true,
    };
    // pairwise with redirect URIs on two hosts needs a sector URI; keep one host here.
    const single = { ...body, redirect_uris: ['https://app.example/cb', 'https://app.example/cb2'] };
    const created = await create(single);
    const { client_secret: secret, ...expected } = single;
    expect(created).toMatchObject({ ...expected, client_secret: secret, client_secret_expires_at: 0 });
    const read = await app.admin.get<WireClient>('/clients/every-field');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject(expected);
    expect(read.body).not.toHaveProperty('client_secret');
  });

  it('never generates a secret for a public client and refuses a supplied one', async () => {
    const client = await create({ token_endpoint_auth_method: 'none', redirect_uris: ['https://spa.example/cb'] });
    expect(client).not.toHaveProperty('client_secret');
    const withSecret = await app.admin.post('/clients', { json: { token_endpoint_auth_method: 'none', client_secret: 'abcdefgh' } });
    expectError(withSecret, 400, 'invalid_client_metadata', 'client_secret');
  });

  it('answers 409 conflict for a client_id that exists', async () => {
    await create({ client_id: 'taken' });
    expectError(await app.admin.post('/clients', { json: { client_id: 'taken' } }), 409, 'conflict');
  });

  it('refuses unknown fields and wrongly typed fields with invalid_request', async () => {
    expectError(await app.admin.post('/clients', { json: { client_id: 'x1', not_a_field: true } }), 400, 'invalid_request');
    expectError(await app.admin.post('/clients', { json: { redirect_uris: 'https://a.example/cb' } }), 400, 'invalid_request');
  });

  it('ignores client_secret_expires_at, created_at and updated_at from the body (a GET response can be sent back)', async () => {
    const client = await create({ client_secret_expires_at: 12345, created_at: '2000-01-01T00:00:00Z' });
    expect(client['client_secret_expires_at']).toBe(0);
    expect(client['created_at']).not.toBe('2000-01-01T00:00:00Z');
  });

  it('defaults response_types coherently for a client_credentials client', async () => {
    const client = await create({ grant_types: ['client_credentials'] });
    expect(client['response_types']).toEqual([]);
  });
});

describe('validation (400, OAuth error family, description names the field)', () => {
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['redirect URI with a fragment (S04)', { redirect_uris: ['https://a.example/cb#x'] }, 'invalid_redirect_uri', 'redirect_uris'],
    ['relative redirect URI', { redirect_uris: ['/cb'] }, 'invalid_redirect_uri', 'redirect_uris'],
    ['http redirect URI on a non-loopback host (S04)', { redirect_uris: ['http://a.example/cb'] }, 'invalid_redirect_uri', 'redirect_uris'],
    ['javascript: redirect URI', { redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri', 'redirect_uris'],
    [
      'post_logout_redirect_uri on another host (S04)',
      { redirect_uris: ['https://a.example/cb'], post_logout_redirect_uris: ['https://evil.example/bye'] },
      'invalid_client_metadata',
      'post_logout_redirect_uris',
    ],
    [
      'post_logout_redirect_uri on another port',
      { redirect_uris: ['https://a.example/cb'], post_logout_redirect_uris: ['https://a.example:8443/bye'] },
      'invalid_client_metadata',
      'post_logout_redirect_uris',
    ],
    ['unknown subject_type', { subject_type: 'secret' }, 'invalid_client_metadata', 'subject_type'],
    [
      'pairwise without sector_identifier_uri and redirect URIs on two hosts',
      { subject_type: 'pairwise', redirect_uris: ['https://a.example/cb', 'https://b.example/cb'] },
      'invalid_client_metadata',
      'subject_type',
    ],
    [
      'unknown token_endpoint_auth_method',
      { token_endpoint_auth_method: 'client_secret_jwt' },
      'invalid_client_metadata',
      'token_endpoint_auth_method',
    ],
    [
      'private_key_jwt without keys',
      { token_endpoint_auth_method: 'private_key_jwt' },
      'invalid_client_metadata',
      'token_endpoint_auth_method',
    ],
    ['jwks and jwks_uri together (S45)', { jwks: { keys: [] }, jwks_uri: 'https://8.8.8.8/jwks.json' }, 'invalid_client_metadata', 'jwks'],
    ['jwks without a keys array', { jwks: { key: [] } }, 'invalid_client_metadata', 'jwks'],
    [
      'jwks with a key that does not parse',
      { jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'nope', y: 'nope' }] } },
      'invalid_client_metadata',
      'jwks',
    ],
    [
      'jwks with a symmetric key',
      { jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0LXNlY3JldC1zZWNyZXQ' }] } },
      'invalid_client_metadata',
      'jwks',
    ],
    [
      'unsupported userinfo_signed_response_alg',
      { userinfo_signed_response_alg: 'HS256' },
      'invalid_client_metadata',
      'userinfo_signed_response_alg',
    ],
    ['request_object_signing_alg HS256', { request_object_signing_alg: 'HS256' }, 'invalid_client_metadata', 'request_object_signing_alg'],
    [
      'token_endpoint_auth_signing_alg HS256',
      { token_endpoint_auth_signing_alg: 'HS256' },
      'invalid_client_metadata',
      'token_endpoint_auth_signing_alg',
    ],
    ['secret shorter than 6 characters (S45)', { client_secret: 'short' }, 'invalid_client_metadata', 'client_secret'],
    ['CORS origin with a path', { allowed_cors_origins: ['https://a.example/path'] }, 'invalid_client_metadata', 'allowed_cors_origins'],
    ['CORS origin with a query', { allowed_cors_origins: ['https://a.example?x=1'] }, 'invalid_client_metadata', 'allowed_cors_origins'],
    [
      'CORS origin with userinfo',
      { allowed_cors_origins: ['https://user:pw@a.example'] },
      'invalid_client_metadata',
      'allowed_cors_origins',
    ],
    ['CORS origin that is not http(s)', { allowed_cors_origins: ['ftp://a.example'] }, 'invalid_client_metadata', 'allowed_cors_origins'],
    ['unknown grant type', { grant_types: ['password'] }, 'invalid_client_metadata', 'grant_types'],
    [
      'code without the authorization_code grant',
      { grant_types: ['implicit'], response_types: ['code'] },
      'invalid_client_metadata',
      'response_types',
    ],
    [
      'token without the implicit grant',
      { grant_types: ['authorization_code'], response_types: ['token'] },
      'invalid_client_metadata',
      'response_types',
    ],
    ['id_token without the implicit grant', { response_types: ['code id_token'] }, 'invalid_client_metadata', 'response_types'],
    ['unknown response type', { response_types: ['code banana'] }, 'invalid_client_metadata', 'response_types'],
    [
      'sector_identifier_uri over http (S45)',
      { sector_identifier_uri: 'http://8.8.8.8/sector.json' },
      'invalid_client_metadata',
      'sector_identifier_uri',
    ],
    [
      'sector_identifier_uri on a private address (S45)',
      { sector_identifier_uri: 'https://10.0.0.1/sector.json' },
      'invalid_client_metadata',
      'sector_identifier_uri',
    ],
    ['jwks_uri on the cloud metadata address', { jwks_uri: 'https://169.254.169.254/jwks' }, 'invalid_client_metadata', 'jwks_uri'],
    [
      'backchannel_logout_uri on loopback IPv6',
      { backchannel_logout_uri: 'https://[::1]/logout' },
      'invalid_client_metadata',
      'backchannel_logout_uri',
    ],
    ['request_uris resolving to loopback', { request_uris: ['https://localhost/request.jwt'] }, 'invalid_client_metadata', 'request_uris'],
    [
      'request_uris on an IPv4-mapped private address',
      { request_uris: ['https://[::ffff:192.168.1.1]/r'] },
      'invalid_client_metadata',
      'request_uris',
    ],
    ['client_uri that is not a web URL', { client_uri: 'javascript:alert(1)' }, 'invalid_client_metadata', 'client_uri'],
    ['scope with a control character', { scope: 'openid\tprofile' }, 'invalid_client_metadata', 'scope'],
  ];

  it.each(cases)('%s', async (_name, body, error, field) => {
    expectError(await app.admin.post('/clients', { json: body }), 400, error, field);
  });

  it('refuses a private key in jwks', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = await exportJWK(privateKey);
    const response = await app.admin.post('/clients', { json: { jwks: { keys: [jwk] } } });
    expectError(response, 400, 'invalid_client_metadata', 'jwks');
  });

  it('applies the same rules on PUT', async () => {
    await create({ client_id: 'put-rules', redirect_uris: ['https://a.example/cb'] });
    expectError(
      await app.admin.put('/clients/put-rules', { json: { redirect_uris: ['http://a.example/cb'] } }),
      400,
      'invalid_redirect_uri',
    );
    expectError(
      await app.admin.put('/clients/put-rules', { json: { client_secret: 'tiny' } }),
      400,
      'invalid_client_metadata',
      'client_secret',
    );
  });

  it('accepts http redirect URIs on loopback hosts, custom schemes, a private_key_jwt client with public keys, and pairwise on one host', async () => {
    await create({ redirect_uris: ['http://127.0.0.1:9000/cb', 'http://localhost/cb', 'http://[::1]:8080/cb', 'com.example.app:/oauth'] });
    const keyed = await create({
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'RS256',
      jwks: { keys: [await publicJwk('RS256'), await publicJwk('ES256')] },
    });
    expect(keyed['jwks']).toMatchObject({ keys: [{ kty: 'RSA' }, { kty: 'EC' }] });
    expect(keyed['token_endpoint_auth_method']).toBe('private_key_jwt');
    await create({ subject_type: 'pairwise', redirect_uris: ['https://one.example/a', 'https://one.example/b'] });
  });
});

describe('GET /clients/{id}', () => {
  it('answers 404 not_found for an unknown id, SQL metacharacters, NUL and over-long ids (S47)', async () => {
    for (const id of ['does-not-exist', "x' OR '1'='1", 'x%27%3B%20DROP%20TABLE%20clients%3B--', '%00', 'a'.repeat(300), '%E2%80%AE']) {
      expectError(await app.admin.get(`/clients/${id}`), 404, 'not_found');
    }
    expect((await app.admin.get('/clients')).status).toBe(200);
  });

  it('finds a client whose id is 255 characters long or not ASCII', async () => {
    for (const id of ['x'.repeat(255), 'client-ü-✓']) {
      await create({ client_id: id });
      const read = await app.admin.get<WireClient>(`/clients/${encodeURIComponent(id)}`);
      expect(read.status).toBe(200);
      expect(read.body.client_id).toBe(id);
    }
  });

  it('is served under /admin too', async () => {
    const client = await create({});
    expect((await app.admin.get(`/admin/clients/${client.client_id}`)).status).toBe(200);
  });
});

describe('GET /clients (pagination)', () => {
  let ids: string[];

  beforeAll(async () => {
    await queryDatabase(app.databaseUrl, 'DELETE FROM clients');
    ids = [];
    for (let i = 0; i < 7; i += 1) ids.push((await create({ client_id: `page-${i}` })).client_id);
  });

  it('lists in client_id order without secrets', async () => {
    const response = await app.admin.get<WireClient[]>('/clients');
    expect(response.status).toBe(200);
    expect(response.body.map((client) => client.client_id)).toEqual(ids);
    for (const client of response.body) expect(client).not.toHaveProperty('client_secret');
    expect(response.headers.get('x-total-count')).toBe('7');
    expect(response.headers.get('link')).toBe('</clients?limit=100&offset=0>; rel="first",</clients?limit=100&offset=0>; rel="last"');
  });

  it('links first and next (and last) on the first page', async () => {
    const response = await app.admin.get<WireClient[]>('/clients?limit=3');
    expect(response.body.map((client) => client.client_id)).toEqual(ids.slice(0, 3));
    expect(response.headers.get('link')).toBe(
      '</clients?limit=3&offset=0>; rel="first",</clients?limit=3&offset=3>; rel="next",</clients?limit=3&offset=6>; rel="last"',
    );
  });

  it('links first, next, prev, previous and last on a middle page', async () => {
    const response = await app.admin.get<WireClient[]>('/clients?limit=3&offset=3');
    expect(response.body.map((client) => client.client_id)).toEqual(ids.slice(3, 6));
    expect(response.headers.get('link')).toBe(
      '</clients?limit=3&offset=0>; rel="first",</clients?limit=3&offset=6>; rel="next",</clients?limit=3&offset=0>; rel="prev",</clients?limit=3&offset=0>; rel="previous",</clients?limit=3&offset=6>; rel="last"',
    );
  });

  it('links first, prev, previous and last on the last page', async () => {
    const response = await app.admin.get<WireClient[]>('/clients?offset=6&limit=3');
    expect(response.body.map((client) => client.client_id)).toEqual(ids.slice(6));
    expect(response.headers.get('link')).toBe(
      '</clients?limit=3&offset=0>; rel="first",</clients?limit=3&offset=3>; rel="prev",</clients?limit=3&offset=3>; rel="previous",</clients?limit=3&offset=6>; rel="last"',
    );
  });

  it('answers an empty page past the end', async () => {
    const response = await app.admin.get<WireClient[]>('/clients?limit=3&offset=50');
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it('keeps the /admin prefix in the links', async () => {
    const response = await app.admin.get('/admin/clients?limit=5');
    expect(response.headers.get('link')).toContain('</admin/clients?limit=5&offset=5>; rel="next"');
  });

  it('lowers a limit over 500 to 500', async () => {
    const response = await app.admin.get('/clients?limit=100000');
    expect(response.status).toBe(200);
    expect(response.headers.get('link')).toContain('limit=500&offset=0');
  });

  it.each([
    'limit=-1',
    'limit=0',
    'limit=abc',
    'limit=1e3',
    'offset=-5',
    'offset=1.5',
    "offset=1'--",
    'limit=99999999999999999999',
    'limit=1&limit=2',
  ])('refuses %s with 400 invalid_request (S47)', async (query) => {
    const response = await app.admin.get(`/clients?${query}`);
    expectError(response, 400, 'invalid_request');
  });
});

describe('PUT /clients/{id}', () => {
  it('replaces every field, keeps created_at, moves updated_at, and keeps the stored secret when none is sent', async () => {
    const created = await create({
      client_id: 'replace-me',
      client_name: 'Before',
      contacts: ['a@b.example'],
      redirect_uris: ['https://a.example/cb'],
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const response = await app.admin.put<WireClient>('/clients/replace-me', {
      json: { client_name: 'After', redirect_uris: ['https://b.example/cb'] },
    });
    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty('client_secret');
    expect(response.body).toMatchObject({
      client_id: 'replace-me',
      client_name: 'After',
      contacts: [],
      redirect_uris: ['https://b.example/cb'],
    });
    expect(response.body['created_at']).toBe(created['created_at']);
    expect(Date.parse(response.body['updated_at'] as string)).toBeGreaterThan(Date.parse(created['created_at'] as string));
    await expect(service().authenticate('replace-me', created.client_secret!)).resolves.toMatchObject({ id: 'replace-me' });
    const read = await app.admin.get<WireClient>('/clients/replace-me');
    expect(read.body).toMatchObject({ client_name: 'After', contacts: [] });
  });

  it('rotates a supplied secret, returns it once, and the old secret stops working', async () => {
    const created = await create({ client_id: 'rotate-me', client_secret: 'old-secret-value' });
    await service().authenticate('rotate-me', 'old-secret-value');
    const response = await app.admin.put<WireClient>('/clients/rotate-me', { json: { client_secret: 'new-secret-value' } });
    expect(response.status).toBe(200);
    expect(response.body.client_secret).toBe('new-secret-value');
    expect((await app.admin.get('/clients/rotate-me')).body).not.toHaveProperty('client_secret');
    await expect(service().authenticate('rotate-me', created.client_secret!)).rejects.toMatchObject({ code: 'invalid_client' });
    await expect(service().authenticate('rotate-me', 'new-secret-value')).resolves.toMatchObject({ id: 'rotate-me' });
  });

  it('drops the secret of a client that becomes public, and generates one when it becomes confidential again', async () => {
    await create({ client_id: 'flip', client_secret: 'flip-secret' });
    const toPublic = await app.admin.put<WireClient>('/clients/flip', { json: { token_endpoint_auth_method: 'none' } });
    expect(toPublic.status).toBe(200);
    expect(toPublic.body).not.toHaveProperty('client_secret');
    await expect(service().authenticate('flip', 'flip-secret')).rejects.toMatchObject({ code: 'invalid_client' });
    const [row] = await queryDatabase<{ secret_hash: string | null }>(app.databaseUrl, 'SELECT secret_hash FROM clients WHERE id = $1', [
      'flip',
    ]);
    expect(row!.secret_hash).toBeNull();
    const toConfidential = await app.admin.put<WireClient>('/clients/flip', { json: {} });
    expect(toConfidential.body.client_secret).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    await expect(service().authenticate('flip', toConfidential.body.client_secret!)).resolves.toMatchObject({ id: 'flip' });
  });

  it('accepts a body that repeats the path id, refuses one that names another', async () => {
    await create({ client_id: 'same-id' });
    expect((await app.admin.put('/clients/same-id', { json: { client_id: 'same-id' } })).status).toBe(200);
    expectError(await app.admin.put('/clients/same-id', { json: { client_id: 'other-id' } }), 400, 'invalid_client_metadata', 'client_id');
  });

  it('accepts a GET response sent back unchanged', async () => {
    await create({ client_id: 'round-trip', jwks: { keys: [await publicJwk()] }, redirect_uris: ['https://a.example/cb'] });
    const read = await app.admin.get<WireClient>('/clients/round-trip');
    const response = await app.admin.put<WireClient>('/clients/round-trip', { json: read.body });
    expect(response.status, response.text).toBe(200);
    const { updated_at: _before, ...unchanged } = read.body;
    expect(response.body).toMatchObject(unchanged);
  });

  it('answers 404 for an unknown client', async () => {
    expectError(await app.admin.put('/clients/nobody', { json: {} }), 404, 'not_found');
  });

  it('never touches another client (isolation)', async () => {
    const a = await create({ client_id: 'iso-a', client_name: 'A', client_secret: 'secret-of-a' });
    const b = await create({ client_id: 'iso-b', client_name: 'B', client_secret: 'secret-of-b' });
    await app.admin.put('/clients/iso-a', { json: { client_name: 'A2', client_secret: 'secret-of-a-2' } });
    await app.admin.delete('/clients/iso-a');
    const readB = await app.admin.get<WireClient>('/clients/iso-b');
    expect(readB.body).toMatchObject({ client_name: 'B', updated_at: b['updated_at'], created_at: b['created_at'] });
    await expect(service().authenticate('iso-b', 'secret-of-b')).resolves.toMatchObject({ id: 'iso-b' });
    await expect(service().authenticate('iso-b', 'secret-of-a-2')).rejects.toMatchObject({ code: 'invalid_client' });
    expect(a.client_id).toBe('iso-a');
  });
});

describe('DELETE /clients/{id}', () => {
  it('answers 204, then the client is gone (404 on GET, PUT and DELETE) and cannot authenticate', async () => {
    const client = await create({ client_id: 'delete-me' });
    await service().authenticate('delete-me', client.client_secret!);
    const response = await app.admin.delete('/clients/delete-me');
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expectError(await app.admin.get('/clients/delete-me'), 404, 'not_found');
    expectError(await app.admin.put('/clients/delete-me', { json: {} }), 404, 'not_found');
    expectError(await app.admin.delete('/clients/delete-me'), 404, 'not_found');
    await expect(service().authenticate('delete-me', client.client_secret!)).rejects.toMatchObject({ code: 'invalid_client' });
  });
});

describe('access', () => {
  const endpoints: Array<[string, string]> = [
    ['POST', '/clients'],
    ['GET', '/clients'],
    ['GET', '/clients/any'],
    ['PUT', '/clients/any'],
    ['DELETE', '/clients/any'],
  ];

  it.each(endpoints)('%s %s needs an admin credential (401)', async (method, path) => {
    const response = await app.anonymousAdmin.request(method, path, { json: method === 'POST' || method === 'PUT' ? {} : undefined });
    expectError(response, 401, 'unauthorized');
  });

  it.each(endpoints)('%s %s does not exist on the public listener (404)', async (method, path) => {
    const response = await app.public.withToken(TEST_ADMIN_TOKEN).request(method, path, {
      json: method === 'POST' || method === 'PUT' ? {} : undefined,
    });
    expect(response.status).toBe(404);
  });
});

describe('storage', () => {
  it('keeps no clear secret in any column (S46)', async () => {
    const secret = 'S46-very-recognisable-secret-value';
    await create({ client_id: 's46', client_secret: secret });
    const generated = await create({ client_id: 's46-generated' });
    const rows = await queryDatabase(app.databaseUrl, 'SELECT * FROM clients WHERE id IN ($1, $2)', ['s46', 's46-generated']);
    expect(rows).toHaveLength(2);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(secret);
    expect(dump).not.toContain(generated.client_secret);
    for (const row of rows) expect(row['secret_hash']).toMatch(/^pbkdf2-sha256\$\d+\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
  });

  it('has an entity that agrees with its migration', async () => {
    const source = new DataSource(dataSourceOptions(app.databaseUrl, { poolSize: 1, connectTimeoutMs: 5000, statementTimeoutMs: 0 }));
    await source.initialize();
    try {
      const drift = await source.driver.createSchemaBuilder().log();
      expect(drift.upQueries.map((query) => query.query).filter((query) => query.includes('"clients"'))).toEqual([]);
    } finally {
      await source.destroy();
    }
  });

  it('drops cached copies and remembered secrets on the other instances when a client changes', async () => {
    const other = await bootApp({}, { databaseUrl: app.databaseUrl });
    try {
      await create({ client_id: 'shared', client_name: 'v1', client_secret: 'shared-secret-1' });
      const otherService = other.running.app.get(ClientsService);
      expect((await other.admin.get<WireClient>('/clients/shared')).body['client_name']).toBe('v1');
      await otherService.authenticate('shared', 'shared-secret-1');
      // A change behind the service's back is not seen: reads are served from the instance's cache.
      await queryDatabase(app.databaseUrl, "UPDATE clients SET client_name = 'behind-its-back' WHERE id = 'shared'");
      expect((await other.admin.get<WireClient>('/clients/shared')).body['client_name']).toBe('v1');
      await app.admin.put('/clients/shared', { json: { client_name: 'v2', client_secret: 'shared-secret-2' } });
      await expect.poll(async () => (await other.admin.get<WireClient>('/clients/shared')).body['client_name']).toBe('v2');
      await expect(otherService.authenticate('shared', 'shared-secret-1')).rejects.toMatchObject({ code: 'invalid_client' });
      await app.admin.delete('/clients/shared');
      await expect.poll(async () => (await other.admin.get('/clients/shared')).status).toBe(404);
    } finally {
      await other.close();
    }
  });

  it('survives a restart on the same database', async () => {
    const first = await bootApp({}, { databaseUrl: app.databaseUrl });
    let secret: string;
    try {
      const response = await first.admin.post<WireClient>('/clients', { json: { client_id: 'durable', client_name: 'Durable' } });
      expect(response.status).toBe(201);
      secret = response.body.client_secret!;
    } finally {
      await first.close();
    }
    const second = await bootApp({}, { databaseUrl: app.databaseUrl });
    try {
      const read = await second.admin.get<WireClient>('/clients/durable');
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ client_id: 'durable', client_name: 'Durable' });
      await expect(second.running.app.get(ClientsService).authenticate('durable', secret)).resolves.toMatchObject({ id: 'durable' });
    } finally {
      await second.close();
    }
  });
});
