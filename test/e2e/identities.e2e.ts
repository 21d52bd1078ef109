import { createHmac } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, TEST_SYSTEM_SECRET, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import type { HttpResponse } from '../support/http.js';

interface WireAddress {
  id: string;
  value: string;
  via: string;
  verified?: boolean;
  status?: string;
  verified_at?: string | null;
}

interface WireIdentity {
  id: string;
  schema_id: string;
  schema_url: string;
  traits: Record<string, unknown>;
  recovery_addresses: WireAddress[];
  verifiable_addresses: WireAddress[];
  created_at: string;
  updated_at: string;
}

interface WireError {
  error: { id: string; code: number; status: string; reason: string; message: string; request: string; details?: Record<string, unknown> };
}

const ISSUER = 'https://id.example.test';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const EMAIL_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    traits: {
      type: 'object',
      properties: {
        email: {
          type: 'string',
          format: 'email',
          'ory.sh/kratos': {
            credentials: { password: { identifier: true } },
            verification: { via: 'email' },
            recovery: { via: 'email' },
          },
        },
        username: { type: 'string', minLength: 3, 'ory.sh/kratos': { credentials: { password: { identifier: true } } } },
        name: { type: 'object', properties: { first: { type: 'string', maxLength: 5 } }, additionalProperties: false },
      },
      required: ['email'],
      additionalProperties: false,
    },
  },
};

/** No recovery address at all: a machine identity (JSON Schema 2020-12). */
const SERVICE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    traits: {
      type: 'object',
      properties: { client: { type: 'string', 'ory.sh/kratos': { credentials: { password: { identifier: true } } } } },
      required: ['client'],
    },
  },
};

let app: TestApp;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'latchkey-schemas-'));
  const serviceFile = join(dir, 'service.schema.json');
  await writeFile(serviceFile, JSON.stringify(SERVICE_SCHEMA));
  app = await bootApp({
    ISSUER_URL: ISSUER,
    IDENTITY_SCHEMAS: JSON.stringify([
      { id: 'person', url: `base64://${Buffer.from(JSON.stringify(EMAIL_SCHEMA)).toString('base64')}` },
      { id: 'service', url: pathToFileURL(serviceFile).href },
      { id: 'inline', url: JSON.stringify({ properties: { traits: { type: 'object' } } }) },
    ]),
    IDENTITY_DEFAULT_SCHEMA_ID: 'person',
  });
});

afterAll(async () => {
  await app.close();
});

function expectError(response: HttpResponse, status: number, id: string): WireError['error'] {
  expect(response.status, response.text).toBe(status);
  const body = (response.body as WireError).error;
  expect(body.id).toBe(id);
  expect(body.code).toBe(status);
  expect(body.request).toBeTruthy();
  return body;
}

async function create(traits: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<WireIdentity> {
  const response = await app.admin.post<WireIdentity>('/identities', { json: { traits, ...extra } });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function count(table: string, identityId?: string): Promise<number> {
  const rows = await queryDatabase<{ n: string }>(
    app.databaseUrl,
    identityId === undefined ? `SELECT count(*) AS n FROM ${table}` : `SELECT count(*) AS n FROM ${table} WHERE identity_id = $1`,
    identityId === undefined ? [] : [identityId],
  );
  return Number(rows[0]!.n);
}

let sequence = 0;
function uniqueEmail(prefix = 'user'): string {
  sequence += 1;
  return `${prefix}-${sequence}-${Date.now()}@example.com`;
}

describe('GET /schemas/{id}', () => {
  it('serves every configured schema as configured on the public listener', async () => {
    const person = await app.public.get('/schemas/person');
    expect(person.status).toBe(200);
    expect(person.headers.get('content-type')).toContain('application/json');
    expect(person.body).toEqual(EMAIL_SCHEMA);
    expect((await app.public.get('/schemas/service')).body).toEqual(SERVICE_SCHEMA);
    expect((await app.public.get('/schemas/inline')).status).toBe(200);
  });

  it('is 404 for an unknown id; on the admin listener too (Kratos v0.6 serves it there), behind the admin credential', async () => {
    expectError(await app.public.get('/schemas/nope'), 404, 'schema_not_found');
    expect((await app.admin.get('/schemas/person')).status).toBe(200);
    expect((await app.anonymousAdmin.get('/schemas/person')).status).toBe(401);
  });
});

describe('POST /identities', () => {
  it('creates an identity with derived addresses and the public schema URL', async () => {
    const email = uniqueEmail('Create');
    const response = await app.admin.post<WireIdentity>('/identities', { json: { schema_id: 'person', traits: { email } } });
    expect(response.status).toBe(201);
    const identity = response.body;
    expect(identity.id).toMatch(UUID);
    expect(identity).toMatchObject({ schema_id: 'person', schema_url: `${ISSUER}/schemas/person`, traits: { email } });
    expect(identity.verifiable_addresses).toEqual([
      expect.objectContaining({ value: email.toLowerCase(), via: 'email', verified: false, status: 'pending', verified_at: null }),
    ]);
    expect(identity.recovery_addresses).toEqual([expect.objectContaining({ value: email.toLowerCase(), via: 'email' })]);
    expect(identity.verifiable_addresses[0]!.id).toMatch(UUID);
    expect(identity.created_at).toBe(identity.updated_at);
    expect(identity).not.toHaveProperty('credentials');
  });

  it('uses the default schema when schema_id is empty or absent', async () => {
    expect((await create({ email: uniqueEmail() }, { schema_id: '' })).schema_id).toBe('person');
    expect((await create({ email: uniqueEmail() })).schema_id).toBe('person');
  });

  it('validates against the named schema, 2020-12 included', async () => {
    const identity = await create({ client: `svc-${Date.now()}` }, { schema_id: 'service' });
    expect(identity).toMatchObject({ schema_id: 'service', recovery_addresses: [], verifiable_addresses: [] });
    expectError(await app.admin.post('/identities', { json: { schema_id: 'service', traits: {} } }), 400, 'invalid_traits');
  });

  it('refuses an unknown schema id with a 400', async () => {
    const error = expectError(await app.admin.post('/identities', { json: { schema_id: 'nope', traits: {} } }), 400, 'unknown_schema');
    expect(error.details).toEqual({ field: 'schema_id' });
  });

  it.each([
    [{ email: 'not-an-email' }, 'traits.email', 'format'],
    [{}, 'traits.email', 'required'],
    [{ email: 'a@example.com', extra: 1 }, 'traits.extra', 'additionalProperties'],
    [{ email: 'a@example.com', name: { first: 'Bartholomew' } }, 'traits.name.first', 'maxLength'],
    [{ email: 'a@example.com', username: 'ab' }, 'traits.username', 'minLength'],
  ])('names the failing trait path for %j', async (traits, path, keyword) => {
    const error = expectError(await app.admin.post('/identities', { json: { traits } }), 400, 'invalid_traits');
    expect(error.details).toEqual({ path, keyword });
  });

  it('refuses unknown body members, also inside credentials, and traits that are not an object', async () => {
    expectError(
      await app.admin.post('/identities', { json: { traits: { email: uniqueEmail() }, metadata_public: {} } }),
      400,
      'invalid_request',
    );
    expectError(
      await app.admin.post('/identities', {
        json: { traits: { email: uniqueEmail() }, credentials: { password: { config: { password: 'x1', salt: 'y' } } } },
      }),
      400,
      'invalid_request',
    );
    expectError(
      await app.admin.post('/identities', { json: { traits: { email: uniqueEmail() }, credentials: { oidc: {} } } }),
      400,
      'invalid_request',
    );
    expectError(await app.admin.post('/identities', { json: { traits: 'x' } }), 400, 'invalid_request');
  });

  it('treats NFC and NFD spellings and letter case of an identifier as the same: 409, nothing written', async () => {
    const local = `zo\u00eb-${Date.now()}`;
    await create({ email: `${local}@example.com` });
    const before = await count('identities');
    const nfd = `${local.normalize('NFD').toUpperCase()}@EXAMPLE.com`;
    expect(nfd).not.toBe(`${local}@example.com`);
    const error = expectError(await app.admin.post('/identities', { json: { traits: { email: nfd } } }), 409, 'conflict');
    expect(error.details).toEqual({ field: 'credentials_identifier' });
    expect(await count('identities')).toBe(before);
  });

  it('refuses an identifier held by another trait of another identity, leaving nothing behind', async () => {
    const email = uniqueEmail();
    const username = `user${Date.now()}`;
    await create({ email, username });
    const rows = await Promise.all(['identities', 'identity_verifiable_addresses', 'identity_recovery_addresses'].map((t) => count(t)));
    expectError(
      await app.admin.post('/identities', { json: { traits: { email: uniqueEmail(), username: username.toUpperCase() } } }),
      409,
      'conflict',
    );
    expect(await Promise.all(['identities', 'identity_verifiable_addresses', 'identity_recovery_addresses'].map((t) => count(t)))).toEqual(
      rows,
    );
  });
});

describe('credential import', () => {
  const bcrypt = '$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW';
  const argon2 = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$VJc5TtKKpv0PDDNC1Zc1hq4IMqOZtVYZKq0+O0iBEqE';

  it('stores a supplied bcrypt or argon2 hash as given', async () => {
    for (const hashed of [bcrypt, argon2]) {
      const identity = await create({ email: uniqueEmail() }, { credentials: { password: { config: { hashed_password: hashed } } } });
      const rows = await queryDatabase<{ type: string; config: { hashed_password: string } }>(
        app.databaseUrl,
        'SELECT type, config FROM identity_credentials WHERE identity_id = $1',
        [identity.id],
      );
      expect(rows).toEqual([{ type: 'password', config: { hashed_password: hashed } }]);
    }
  });

  it('hashes a clear-text password with argon2id and never stores the clear text', async () => {
    const password = `Cleartext-${Date.now()}-correct horse`;
    const identity = await create({ email: uniqueEmail() }, { credentials: { password: { config: { password } } } });
    const [row] = await queryDatabase<{ config: { hashed_password: string } }>(
      app.databaseUrl,
      'SELECT config FROM identity_credentials WHERE identity_id = $1',
      [identity.id],
    );
    expect(row!.config.hashed_password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    for (const table of [
      'identities',
      'identity_credentials',
      'identity_credential_identifiers',
      'identity_verifiable_addresses',
      'identity_recovery_addresses',
    ]) {
      const dump = await queryDatabase<{ row: string }>(app.databaseUrl, `SELECT row_to_json(t)::text AS row FROM ${table} t`);
      expect(dump.map((r) => r.row).join('\n')).not.toContain(password);
    }
  });

  it.each([
    [{ hashed_password: 'plain-not-a-hash' }],
    [{ hashed_password: '$argon2d$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA' }],
    [{ hashed_password: '$2x$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW' }],
    [{ hashed_password: bcrypt, password: 'both' }],
    [{}],
  ])('refuses %j with a 400 and writes nothing', async (config) => {
    const before = await count('identities');
    expectError(
      await app.admin.post('/identities', { json: { traits: { email: uniqueEmail() }, credentials: { password: { config } } } }),
      400,
      'invalid_request',
    );
    expect(await count('identities')).toBe(before);
  });

  it('cannot set credentials through PUT', async () => {
    const identity = await create({ email: uniqueEmail() });
    expectError(
      await app.admin.put(`/identities/${identity.id}`, {
        json: { traits: identity.traits, credentials: { password: { config: { password: 'secret-secret' } } } },
      }),
      400,
      'invalid_request',
    );
  });
});

describe('GET /identities/{id}', () => {
  it('returns the identity as created', async () => {
    const identity = await create({ email: uniqueEmail() });
    const response = await app.admin.get<WireIdentity>(`/identities/${identity.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(identity);
    expect((await app.admin.get<WireIdentity>(`/admin/identities/${identity.id}`)).body).toEqual(identity);
  });

  it('is 404 for an unknown or malformed id', async () => {
    expectError(await app.admin.get('/identities/8f1b2c9e-0d7a-4c1e-9a55-3f0b7c6d5e4a'), 404, 'not_found');
    expectError(await app.admin.get('/identities/not-a-uuid'), 404, 'not_found');
  });
});

describe('PUT /identities/{id}', () => {
  it('replaces traits completely and re-derives addresses, keeping those that stay with their state', async () => {
    const email = uniqueEmail();
    const identity = await create({ email, name: { first: 'Ann' } });
    await queryDatabase(
      app.databaseUrl,
      `UPDATE identity_verifiable_addresses SET verified = true, verified_at = now(), status = 'completed' WHERE identity_id = $1`,
      [identity.id],
    );

    const same = await app.admin.put<WireIdentity>(`/identities/${identity.id}`, { json: { traits: { email } } });
    expect(same.status, same.text).toBe(200);
    expect(same.body.traits).toEqual({ email });
    expect(same.body.verifiable_addresses).toEqual([
      expect.objectContaining({ id: identity.verifiable_addresses[0]!.id, verified: true, status: 'completed' }),
    ]);
    expect(same.body.verifiable_addresses[0]!.verified_at).not.toBeNull();
    expect(same.body.recovery_addresses[0]!.id).toBe(identity.recovery_addresses[0]!.id);
    expect(same.body.created_at).toBe(identity.created_at);

    const other = uniqueEmail();
    const changed = await app.admin.put<WireIdentity>(`/identities/${identity.id}`, { json: { schema_id: '', traits: { email: other } } });
    expect(changed.status).toBe(200);
    expect(changed.body.schema_id).toBe('person');
    expect(changed.body.verifiable_addresses).toEqual([expect.objectContaining({ value: other, verified: false, status: 'pending' })]);
    expect(changed.body.verifiable_addresses[0]!.id).not.toBe(identity.verifiable_addresses[0]!.id);
    expect(changed.body).toEqual((await app.admin.get(`/identities/${identity.id}`)).body);

    const freed = await create({ email });
    expect(freed.traits).toEqual({ email });
  });

  it('moves an identity to another schema', async () => {
    const identity = await create({ email: uniqueEmail() });
    const moved = await app.admin.put<WireIdentity>(`/identities/${identity.id}`, {
      json: { schema_id: 'service', traits: { client: `c${Date.now()}` } },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      schema_id: 'service',
      schema_url: `${ISSUER}/schemas/service`,
      recovery_addresses: [],
      verifiable_addresses: [],
    });
  });

  it('refuses a clash with another identity: 409 and the identity unchanged', async () => {
    const taken = uniqueEmail();
    await create({ email: taken });
    const identity = await create({ email: uniqueEmail() });
    const error = expectError(await app.admin.put(`/identities/${identity.id}`, { json: { traits: { email: taken } } }), 409, 'conflict');
    expect(error.details?.['field']).toBeDefined();
    expect((await app.admin.get(`/identities/${identity.id}`)).body).toEqual(identity);
  });

  it('is 404 for an unknown identity and 400 for invalid or incomplete bodies', async () => {
    expectError(
      await app.admin.put('/identities/8f1b2c9e-0d7a-4c1e-9a55-3f0b7c6d5e4a', { json: { traits: { email: uniqueEmail() } } }),
      404,
      'not_found',
    );
    const identity = await create({ email: uniqueEmail() });
    expectError(await app.admin.put(`/identities/${identity.id}`, { json: { schema_id: 'person' } }), 400, 'invalid_request');
    expectError(await app.admin.put(`/identities/${identity.id}`, { json: { traits: { email: 'x' } } }), 400, 'invalid_traits');
    expectError(
      await app.admin.put(`/identities/${identity.id}`, { json: { traits: identity.traits, id: identity.id } }),
      400,
      'invalid_request',
    );
    expectError(await app.admin.put(`/identities/${identity.id}`, { json: { schema_id: 'nope', traits: {} } }), 400, 'unknown_schema');
  });

  it('does not interleave 20 concurrent writes: the final state is one accepted body, losers get 429 (inflight rule) or 409 concurrent_update', async () => {
    const identity = await create({ email: uniqueEmail() });
    const bodies = Array.from({ length: 20 }, (_, i) => ({
      traits: { email: `race-${i}-${identity.id}@example.com`, username: `racer${i}x${Date.now()}`, name: { first: `n${i}` } },
    }));
    const responses = await Promise.all(bodies.map((json) => app.admin.put<WireIdentity>(`/identities/${identity.id}`, { json })));
    const accepted = responses.flatMap((response, i) => (response.status === 200 ? [bodies[i]!] : []));
    expect(accepted.length).toBeGreaterThan(0);
    // The inflight rule (docs/rate-limits.md) refuses a write while another to the same identity is in
    // flight; the row lock refuses what slips past it.
    for (const response of responses.filter((r) => r.status !== 200)) {
      if (response.status === 429) expectError(response, 429, 'too_many_requests');
      else expectError(response, 409, 'concurrent_update');
    }

    const final = (await app.admin.get<WireIdentity>(`/identities/${identity.id}`)).body;
    const winner = accepted.find((body) => isDeepStrictEqual(body.traits, final.traits));
    expect(winner).toBeDefined();
    expect(final.verifiable_addresses.map((a) => a.value)).toEqual([winner!.traits.email]);
    expect(final.recovery_addresses.map((a) => a.value)).toEqual([winner!.traits.email]);
    const identifiers = await queryDatabase<{ identifier: string }>(
      app.databaseUrl,
      'SELECT identifier FROM identity_credential_identifiers WHERE identity_id = $1 ORDER BY identifier',
      [identity.id],
    );
    expect(identifiers.map((row) => row.identifier)).toEqual([winner!.traits.email, winner!.traits.username.toLowerCase()].sort());
  });
});

describe('DELETE /identities/{id}', () => {
  it('is 204 whether the identity existed or not, and removes everything hanging off it', async () => {
    const identity = await create({ email: uniqueEmail() }, { credentials: { password: { config: { password: 'to-be-deleted' } } } });
    expect((await app.admin.post('/recovery/link', { json: { identity_id: identity.id } })).status).toBe(200);
    const tables = [
      'identity_credentials',
      'identity_credential_identifiers',
      'identity_verifiable_addresses',
      'identity_recovery_addresses',
      'identity_recovery_tokens',
    ];
    for (const table of tables) expect(await count(table, identity.id)).toBeGreaterThan(0);

    const deleted = await app.admin.delete(`/identities/${identity.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    for (const table of tables) expect(await count(table, identity.id)).toBe(0);
    expectError(await app.admin.get(`/identities/${identity.id}`), 404, 'not_found');

    expect((await app.admin.delete(`/identities/${identity.id}`)).status).toBe(204);
    expect((await app.admin.delete('/identities/not-a-uuid')).status).toBe(204);
    expect((await create({ email: identity.traits['email'] as string })).id).not.toBe(identity.id);
  });
});

describe('GET /identities', () => {
  it('pages from 0 in a stable order with Kratos-style Link headers', async () => {
    for (let i = 0; i < 3; i += 1) await create({ email: uniqueEmail('page') });
    const all = await app.admin.get<WireIdentity[]>('/identities?per_page=1000');
    expect(all.status).toBe(200);
    const total = Number(all.headers.get('x-total-count'));
    expect(all.body).toHaveLength(total);
    const ids = all.body.map((identity) => identity.id);

    const first = await app.admin.get<WireIdentity[]>('/identities?per_page=2');
    expect(first.body.map((identity) => identity.id)).toEqual(ids.slice(0, 2));
    const lastPage = Math.floor((total - 1) / 2);
    const links = first.headers.get('link')!;
    expect(links).toContain('</identities?page=0&per_page=2>; rel="first"');
    expect(links).toContain('</identities?page=1&per_page=2>; rel="next"');
    expect(links).toContain(`</identities?page=${lastPage}&per_page=2>; rel="last"`);
    expect(links).not.toContain('rel="prev"');

    const second = await app.admin.get<WireIdentity[]>('/identities?page=1&per_page=2');
    expect(second.body.map((identity) => identity.id)).toEqual(ids.slice(2, 4));
    expect(second.headers.get('link')).toContain('</identities?page=0&per_page=2>; rel="prev"');

    const beyond = await app.admin.get<WireIdentity[]>(`/identities?page=${lastPage + 5}&per_page=2`);
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual([]);
  });

  it('defaults per_page to 250 and lowers it to 1000', async () => {
    expect((await app.admin.get('/identities')).headers.get('link')).toContain('per_page=250');
    expect((await app.admin.get('/identities?per_page=5000')).headers.get('link')).toContain('per_page=1000');
  });

  it.each(['page=-1', 'per_page=0', 'per_page=abc', 'page=1.5'])('refuses %s with a 400', async (query) => {
    expectError(await app.admin.get(`/identities?${query}`), 400, 'invalid_request');
  });

  it('filters by a normalised credentials identifier and by identifier traits', async () => {
    const local = `filt\u00e9r-${Date.now()}`;
    const identity = await create({ email: `${local}@example.com`, username: `handle${Date.now()}` });
    await create({ email: uniqueEmail() });
    const nfdUpper = encodeURIComponent(`${local.normalize('NFD').toUpperCase()}@Example.COM`);

    const byIdentifier = await app.admin.get<WireIdentity[]>(`/identities?credentials_identifier=${nfdUpper}`);
    expect(byIdentifier.body.map((i) => i.id)).toEqual([identity.id]);
    expect(byIdentifier.headers.get('x-total-count')).toBe('1');
    expect(byIdentifier.headers.get('link')).toContain('credentials_identifier=');

    expect((await app.admin.get<WireIdentity[]>(`/identities?traits.email=${nfdUpper}`)).body.map((i) => i.id)).toEqual([identity.id]);
    const username = encodeURIComponent(identity.traits['username'] as string);
    expect((await app.admin.get<WireIdentity[]>(`/identities?traits.username=${username}`)).body.map((i) => i.id)).toEqual([identity.id]);
    expect((await app.admin.get<WireIdentity[]>(`/identities?traits.email=${username}`)).body).toEqual([]);
    expect(
      (await app.admin.get<WireIdentity[]>(`/identities?credentials_identifier=${nfdUpper}&traits.username=${username}`)).body,
    ).toHaveLength(1);
  });

  it('refuses unknown filters, non-identifier traits and repeated filters', async () => {
    expectError(await app.admin.get('/identities?traits.name.first=Ann'), 400, 'invalid_request');
    expectError(await app.admin.get('/identities?search=x'), 400, 'invalid_request');
    expectError(await app.admin.get('/identities?credentials_identifier=a&credentials_identifier=b'), 400, 'invalid_request');
  });
});

describe('POST /recovery/link', () => {
  it('returns a link for the identity and stores only the token HMAC', async () => {
    const identity = await create({ email: uniqueEmail() });
    const before = Date.now();
    const response = await app.admin.post<{ recovery_link: string; expires_at: string }>('/recovery/link', {
      json: { identity_id: identity.id },
    });
    expect(response.status, response.text).toBe(200);
    const link = new URL(response.body.recovery_link);
    expect(`${link.origin}${link.pathname}`).toBe(`${ISSUER}/self-service/recovery`);
    const token = link.searchParams.get('token')!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.searchParams.get('flow')).toMatch(UUID);
    const expiresAt = Date.parse(response.body.expires_at);
    expect(expiresAt - before).toBeGreaterThanOrEqual(3_600_000 - 1000);
    expect(expiresAt - before).toBeLessThanOrEqual(3_600_000 + 5000);

    const rows = await queryDatabase<Record<string, unknown>>(
      app.databaseUrl,
      'SELECT token_hmac, flow_id, recovery_address_id, used_at FROM identity_recovery_tokens WHERE identity_id = $1',
      [identity.id],
    );
    expect(rows).toEqual([
      {
        token_hmac: createHmac('sha256', TEST_SYSTEM_SECRET).update(token).digest('hex'),
        flow_id: link.searchParams.get('flow'),
        recovery_address_id: identity.recovery_addresses[0]!.id,
        used_at: null,
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('honours expires_in', async () => {
    const identity = await create({ email: uniqueEmail() });
    const before = Date.now();
    const response = await app.admin.post<{ expires_at: string }>('/recovery/link', {
      json: { identity_id: identity.id, expires_in: '30m' },
    });
    expect(response.status).toBe(200);
    expect(Date.parse(response.body.expires_at) - before).toBeLessThanOrEqual(1_800_000 + 5000);
    expect(Date.parse(response.body.expires_at) - before).toBeGreaterThan(1_800_000 - 1000);
  });

  it('is 404 for an unknown identity and 400 without a recovery address or with bad input', async () => {
    expectError(
      await app.admin.post('/recovery/link', { json: { identity_id: '8f1b2c9e-0d7a-4c1e-9a55-3f0b7c6d5e4a' } }),
      404,
      'not_found',
    );
    const machine = await create({ client: `m${Date.now()}` }, { schema_id: 'service' });
    expectError(await app.admin.post('/recovery/link', { json: { identity_id: machine.id } }), 400, 'no_recovery_address');
    const identity = await create({ email: uniqueEmail() });
    for (const expires_in of ['1 hour', '-1h', '0s', '9999h']) {
      expectError(await app.admin.post('/recovery/link', { json: { identity_id: identity.id, expires_in } }), 400, 'invalid_request');
    }
    expectError(await app.admin.post('/recovery/link', { json: { identity_id: 'nope' } }), 400, 'invalid_request');
    expectError(await app.admin.post('/recovery/link', { json: { identity_id: identity.id, extra: true } }), 400, 'invalid_request');
  });
});

describe('access', () => {
  it('needs the admin credential on every admin route', async () => {
    const identity = await create({ email: uniqueEmail() });
    for (const [method, path] of [
      ['GET', '/identities'],
      ['POST', '/identities'],
      ['GET', `/identities/${identity.id}`],
      ['PUT', `/identities/${identity.id}`],
      ['DELETE', `/identities/${identity.id}`],
      ['POST', '/recovery/link'],
    ] as const) {
      const response = await app.anonymousAdmin.request(method, path, { json: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
    expect((await app.admin.get(`/identities/${identity.id}`)).status).toBe(200);
  });

  it('answers under the /admin prefix too, with links that keep it', async () => {
    const identity = await create({ email: uniqueEmail() });
    const list = await app.admin.get('/admin/identities?per_page=1');
    expect(list.status).toBe(200);
    expect(list.headers.get('link')).toContain('</admin/identities?page=0&per_page=1>; rel="first"');
    expect((await app.admin.post('/admin/recovery/link', { json: { identity_id: identity.id } })).status).toBe(200);
    expect((await app.admin.delete(`/admin/identities/${identity.id}`)).status).toBe(204);
  });

  it('serves no admin route on the public listener', async () => {
    const identity = await create({ email: uniqueEmail() });
    expectError(await app.public.get('/identities'), 404, 'not_found');
    expectError(await app.public.get(`/identities/${identity.id}`), 404, 'not_found');
    expectError(await app.public.post('/recovery/link', { json: { identity_id: identity.id } }), 404, 'not_found');
    expect((await app.public.delete(`/identities/${identity.id}`)).status).toBe(404);
  });
});
