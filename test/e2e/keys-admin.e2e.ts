import { SignJWT } from 'jose';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataSourceOptions } from '../../src/database/data-source.options.js';
import { runMigrationsLocked } from '../../src/database/migration-runner.js';
import { KeysService } from '../../src/keys/keys.service.js';
import { bootApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.js';
import { freshDatabase, queryDatabase } from '../support/database.js';
import type { HttpResponse } from '../support/http.js';
import {
  ecJwk,
  ecJwkWithCertificate,
  hasPrivateMembers,
  octJwk,
  PRIVATE_MEMBERS,
  publicPart,
  rsaJwk,
  signJwt,
  verifyWithJwks,
  verifyWithKey,
  type Jwk,
  type JwkSet,
} from '../support/jwk.js';

const ID_TOKEN_SET = 'openid.id-token';
const ACCESS_TOKEN_SET = 'openid.jwt-access-token';

let app: TestApp;

beforeAll(async () => {
  app = await bootApp();
});

afterAll(async () => {
  await app.close();
});

interface ErrorBody {
  error: string;
  status_code: number;
  details?: { reason?: string; key?: number };
}

function expectError(response: HttpResponse, status: number, error: string, reason?: string): void {
  expect(response.status, response.text).toBe(status);
  const body = response.body as ErrorBody;
  expect(body.error).toBe(error);
  expect(body.status_code).toBe(status);
  if (reason !== undefined) expect(body.details?.reason, response.text).toBe(reason);
}

async function jwks(): Promise<JwkSet> {
  const response = await app.public.get<JwkSet>('/.well-known/jwks.json');
  expect(response.status).toBe(200);
  return response.body;
}

async function getSet(set: string): Promise<JwkSet> {
  const response = await app.admin.get<JwkSet>(`/keys/${set}`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe('first start', () => {
  it('has the ID-token set with one RS256 signing key, published in the JWKS', async () => {
    const set = await getSet(ID_TOKEN_SET);
    expect(set.keys).toHaveLength(1);
    const [key] = set.keys;
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(Buffer.from(key!.n!, 'base64url').length * 8).toBeGreaterThanOrEqual(2048);
    const published = await jwks();
    expect(published.keys).toEqual([publicPart(key!)]);
  });

  it('agrees with the migrations: a migration generated against the migrated database has nothing for jwk_keys', async () => {
    const dataSource = new DataSource(
      dataSourceOptions(await freshDatabase(), { poolSize: 2, connectTimeoutMs: 2000, statementTimeoutMs: 0 }),
    );
    await dataSource.initialize();
    try {
      await runMigrationsLocked(dataSource);
      const drift = await dataSource.driver.createSchemaBuilder().log();
      // Only this context's table: database.e2e.ts checks the whole schema.
      expect(drift.upQueries.map((query) => query.query).filter((query) => query.includes('jwk_keys'))).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });
});

describe('generation (POST /keys/{set})', () => {
  const ALGORITHMS = [
    ['RS256', 'RSA'],
    ['RS512', 'RSA'],
    ['PS256', 'RSA'],
    ['ES256', 'EC'],
    ['ES384', 'EC'],
    ['ES512', 'EC'],
    ['EdDSA', 'OKP'],
    ['HS256', 'oct'],
    ['HS512', 'oct'],
  ] as const;

  it.each(ALGORITHMS)('generates a usable %s key (%s) and returns it with its private part', async (alg, kty) => {
    const created = await app.admin.post<JwkSet>(`/keys/${ACCESS_TOKEN_SET}`, { json: { alg, use: 'sig' } });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body.keys).toHaveLength(1);
    const key = created.body.keys[0]!;
    expect(key).toMatchObject({ kty, alg, use: 'sig' });
    expect(key.kid).toMatch(/^[0-9a-f-]{36}$/);
    expect(hasPrivateMembers(key)).toBe(true);
    if (kty === 'RSA') expect(Buffer.from(key.n!, 'base64url').length * 8).toBeGreaterThanOrEqual(2048);
    if (alg === 'EdDSA') expect(key.crv).toBe('Ed25519');

    // What admin GET returns is the same key, private part included.
    const fetched = await app.admin.get<JwkSet>(`/keys/${ACCESS_TOKEN_SET}/${key.kid}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual({ keys: [key] });

    const token = await signJwt(key);
    if (kty === 'oct') {
      await verifyWithKey(token, key);
      expect((await jwks()).keys.map((k) => k.kid)).not.toContain(key.kid);
    } else {
      await verifyWithKey(token, publicPart(key));
      expect(await verifyWithJwks(token, await jwks())).toBe(key.kid);
    }
  });

  it('takes the kid and use given, defaults use to sig, and adds to an existing set', async () => {
    const first = await app.admin.post<JwkSet>('/keys/generated', { json: { alg: 'ES256', kid: 'my-kid', use: 'enc' } });
    expect(first.status).toBe(201);
    expect(first.body.keys[0]).toMatchObject({ kid: 'my-kid', use: 'enc' });
    const second = await app.admin.post<JwkSet>('/keys/generated', { json: { alg: 'ES256' } });
    expect(second.status).toBe(201);
    expect(second.body.keys[0]!.use).toBe('sig');
    expect((await getSet('generated')).keys.map((key) => key.kid)).toEqual([second.body.keys[0]!.kid, 'my-kid']);
  });

  it('refuses a kid the set already has with 409', async () => {
    expect((await app.admin.post('/keys/conflicts', { json: { alg: 'HS256', kid: 'same' } })).status).toBe(201);
    expectError(await app.admin.post('/keys/conflicts', { json: { alg: 'ES256', kid: 'same' } }), 409, 'conflict', 'kid_taken');
    expect((await getSet('conflicts')).keys).toHaveLength(1);
  });

  it.each([
    [{ alg: 'RS384' }, 'unsupported_algorithm'],
    [{ alg: 'none' }, 'unsupported_algorithm'],
    [{ alg: 'ES256', use: 'wrap' }, 'invalid_use'],
    [{ alg: 'ES256', kid: 'has space' }, 'invalid_name'],
    [{ alg: 'ES256', kid: '' }, 'invalid_name'],
  ])('refuses %j with 400 (%s)', async (body, reason) => {
    expectError(await app.admin.post('/keys/refused', { json: body }), 400, 'invalid_request', reason);
    expect((await app.admin.get('/keys/refused')).status).toBe(404);
  });

  it('refuses bodies of the wrong shape with 400', async () => {
    for (const json of [{}, { alg: 256 }, { alg: 'ES256', extra: true }, ['ES256']]) {
      expectError(await app.admin.post('/keys/refused', { json }), 400, 'invalid_request');
    }
    expectError(
      await app.admin.post('/keys/refused', { rawBody: '{"alg":', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_request',
    );
    expect((await app.admin.get('/keys/refused')).status).toBe(404);
  });
});

describe('import (PUT /keys/{set} and PUT /keys/{set}/{kid})', () => {
  it('replaces a whole set, keeps the order given (first = newest) and returns it', async () => {
    await app.admin.post('/keys/imported', { json: { alg: 'HS256', kid: 'old' } });
    const keys = [rsaJwk(2048), ecJwk(), octJwk(64, 'HS512'), publicPart(ecJwk('P-384', 'ES384'))];
    const response = await app.admin.put<JwkSet>('/keys/imported', { json: { keys } });
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body.keys.map((key) => key.kid)).toEqual(keys.map((key) => key.kid));
    const stored = await getSet('imported');
    expect(stored.keys).toEqual(response.body.keys);
    for (const [index, key] of keys.entries()) expect(stored.keys[index]).toEqual(key);
    expect(stored.keys.map((key) => key.kid)).not.toContain('old');
  });

  it('imports one key, replaces it under the same kid, and the replaced key becomes the newest', async () => {
    const first = ecJwk('P-256', 'ES256', 'single');
    const created = await app.admin.put<Jwk>('/keys/one-by-one/single', { json: first });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual(first);
    await app.admin.post('/keys/one-by-one', { json: { alg: 'ES256', kid: 'later' } });
    expect((await getSet('one-by-one')).keys.map((key) => key.kid)).toEqual(['later', 'single']);

    const { kid: _kid, ...withoutKid } = rsaJwk(2048, 'PS256');
    const replaced = await app.admin.put<Jwk>('/keys/one-by-one/single', { json: withoutKid });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({ kid: 'single', kty: 'RSA', alg: 'PS256' });
    const set = await getSet('one-by-one');
    expect(set.keys.map((key) => key.kid)).toEqual(['single', 'later']);
    expect(set.keys[0]).toEqual(replaced.body);
    const byKid = await app.admin.get<JwkSet>('/keys/one-by-one/single');
    expect(byKid.body).toEqual({ keys: [replaced.body] });
  });

  it('accepts public-only keys (verification only) and x5c certificates that hold the key', async () => {
    const certified = await ecJwkWithCertificate('certified');
    const response = await app.admin.put<Jwk>(`/keys/${ACCESS_TOKEN_SET}/certified`, { json: certified });
    expect(response.status, response.text).toBe(200);
    expect(response.body.x5c).toEqual(certified.x5c);
    const published = (await jwks()).keys.find((key) => key.kid === 'certified');
    expect(published).toEqual(publicPart(certified));
    const verifyOnly = publicPart(ecJwk('P-256', 'ES256', 'verify-only'));
    expect((await app.admin.put(`/keys/${ACCESS_TOKEN_SET}/verify-only`, { json: verifyOnly })).status).toBe(200);
    expect((await app.admin.get<JwkSet>(`/keys/${ACCESS_TOKEN_SET}/verify-only`)).body.keys[0]).toEqual(verifyOnly);
    for (const kid of ['certified', 'verify-only']) expect((await app.admin.delete(`/keys/${ACCESS_TOKEN_SET}/${kid}`)).status).toBe(204);
  });

  describe('refuses bad keys with 400 and stores nothing', () => {
    const rsa = rsaJwk(2048);
    const other = rsaJwk(2048);
    const ec = ecJwk();
    const cases: Array<[string, Record<string, unknown>, string | undefined]> = [
      ['an RSA key under 2048 bits', rsaJwk(1024), 'weak_key'],
      ['an HS256 secret under 32 bytes', octJwk(16), 'weak_key'],
      ['an HS512 secret under 64 bytes', octJwk(32, 'HS512'), 'weak_key'],
      ['an unsupported alg', { ...rsa, alg: 'RS384' }, 'unsupported_algorithm'],
      ['alg none', { ...octJwk(), alg: 'none' }, 'unsupported_algorithm'],
      ['a missing alg', { ...rsa, alg: undefined }, 'malformed_key'],
      ['an EC key for RS256', { ...ec, alg: 'RS256' }, 'key_type_mismatch'],
      ['an RSA key for ES256', { ...rsa, alg: 'ES256' }, 'key_type_mismatch'],
      ['a P-256 key for ES384', { ...ec, alg: 'ES384' }, 'key_type_mismatch'],
      ['an oct key for RS256', { ...octJwk(), alg: 'RS256' }, 'key_type_mismatch'],
      ['an RSA key for HS256', { ...rsa, alg: 'HS256' }, 'key_type_mismatch'],
      ['a missing kty', { ...rsa, kty: undefined }, 'malformed_key'],
      ['n that is not base64url', { ...rsa, n: 'not base64url!' }, 'malformed_key'],
      ['a missing e', { ...publicPart(rsa), e: undefined }, 'malformed_key'],
      ['an EC point of the wrong length', { ...ec, x: Buffer.alloc(31, 1).toString('base64url') }, 'malformed_key'],
      ['an EC point off the curve', { ...publicPart(ec), x: Buffer.alloc(32, 7).toString('base64url') }, 'malformed_key'],
      ['a member of another key type', { ...ec, k: 'AAAA' }, 'malformed_key'],
      ['half an RSA private key', { ...publicPart(rsa), d: rsa.d }, 'malformed_key'],
      ['private members of another key', { ...rsa, n: other.n }, 'inconsistent_key'],
      ['use other than sig or enc', { ...ec, use: 'signature' }, 'invalid_use'],
      ['an x5c that is not base64', { ...ec, x5c: ['%%%'] }, 'malformed_key'],
      ['an x5c that is not a certificate', { ...ec, x5c: ['AAAA'] }, 'malformed_key'],
      ['a member not in the JWK model', { ...ec, x5u: 'https://example.com/cert' }, undefined],
      ['a member of the wrong type', { ...ec, x: 12 }, undefined],
    ];

    it.each(cases)('one key: %s', async (_name, jwk, reason) => {
      const kid = String(jwk['kid']);
      expectError(await app.admin.put(`/keys/bad-one/${kid}`, { json: jwk }), 400, 'invalid_request', reason);
      expect((await app.admin.get('/keys/bad-one')).status).toBe(404);
    });

    it.each(cases)('in a set, after a valid key: %s', async (_name, jwk, reason) => {
      const before = await getSet(ID_TOKEN_SET);
      const response = await app.admin.put(`/keys/${ID_TOKEN_SET}`, { json: { keys: [ecJwk(), jwk] } });
      expectError(response, 400, 'invalid_request', reason);
      if (reason !== undefined) expect((response.body as ErrorBody).details?.key).toBe(1);
      expect(await getSet(ID_TOKEN_SET)).toEqual(before);
    });

    it('a certificate for another key', async () => {
      const certified = await ecJwkWithCertificate();
      const response = await app.admin.put('/keys/bad-one/x', { json: { ...ecJwk('P-256', 'ES256', 'x'), x5c: certified.x5c } });
      expectError(response, 400, 'invalid_request', 'inconsistent_key');
    });

    it('a kid in the body that differs from the path', async () => {
      expectError(
        await app.admin.put('/keys/bad-one/path-kid', { json: ecJwk('P-256', 'ES256', 'body-kid') }),
        400,
        'invalid_request',
        'kid_mismatch',
      );
      expect((await app.admin.get('/keys/bad-one')).status).toBe(404);
    });

    it('a set with a key without kid, duplicate kids, no keys, too many keys, or no keys array', async () => {
      const before = await getSet(ID_TOKEN_SET);
      const { kid: _kid, ...noKid } = ecJwk();
      expectError(await app.admin.put(`/keys/${ID_TOKEN_SET}`, { json: { keys: [noKid] } }), 400, 'invalid_request', 'malformed_key');
      const twin = ecJwk('P-256', 'ES256', 'twin');
      expectError(
        await app.admin.put(`/keys/${ID_TOKEN_SET}`, { json: { keys: [twin, octJwk(32, 'HS256', 'other'), { ...ecJwk(), kid: 'twin' }] } }),
        400,
        'invalid_request',
        'duplicate_kid',
      );
      expectError(await app.admin.put(`/keys/${ID_TOKEN_SET}`, { json: { keys: [] } }), 400, 'invalid_request', 'empty_set');
      const many = Array.from({ length: 101 }, () => octJwk());
      expectError(await app.admin.put(`/keys/${ID_TOKEN_SET}`, { json: { keys: many } }), 400, 'invalid_request', 'too_many_keys');
      for (const json of [{}, { keys: 'x' }, { keys: ['x'] }, { keys: [ecJwk()], extra: 1 }]) {
        expectError(await app.admin.put(`/keys/${ID_TOKEN_SET}`, { json }), 400, 'invalid_request');
      }
      expect(await getSet(ID_TOKEN_SET)).toEqual(before);
    });

    it('a key beyond the 100 a set may hold', async () => {
      const hundred = Array.from({ length: 100 }, () => octJwk());
      expect((await app.admin.put('/keys/full', { json: { keys: hundred } })).status).toBe(200);
      expectError(await app.admin.post('/keys/full', { json: { alg: 'HS256' } }), 400, 'invalid_request', 'too_many_keys');
      expectError(
        await app.admin.put('/keys/full/one-more', { json: octJwk(32, 'HS256', 'one-more') }),
        400,
        'invalid_request',
        'too_many_keys',
      );
      // Replacing a key of a full set is fine.
      expect((await app.admin.put(`/keys/full/${hundred[0]!.kid}`, { json: octJwk(32, 'HS256', hundred[0]!.kid) })).status).toBe(200);
      expect((await getSet('full')).keys).toHaveLength(100);
      expect((await app.admin.delete('/keys/full')).status).toBe(204);
    });
  });
});

describe('reading and deleting', () => {
  it('answers 404 not_found for an unknown set or kid', async () => {
    await app.admin.post('/keys/known', { json: { alg: 'HS256', kid: 'there' } });
    for (const response of [
      await app.admin.get('/keys/unknown-set'),
      await app.admin.get('/keys/unknown-set/there'),
      await app.admin.get('/keys/known/unknown-kid'),
      await app.admin.delete('/keys/unknown-set'),
      await app.admin.delete('/keys/unknown-set/there'),
      await app.admin.delete('/keys/known/unknown-kid'),
    ]) {
      expectError(response, 404, 'not_found');
    }
  });

  it('deletes one key, then the whole set', async () => {
    await app.admin.put('/keys/doomed', { json: { keys: [octJwk(32, 'HS256', 'a'), octJwk(32, 'HS256', 'b')] } });
    const deleted = await app.admin.delete('/keys/doomed/a');
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await getSet('doomed')).keys.map((key) => key.kid)).toEqual(['b']);
    expect((await app.admin.get('/keys/doomed/a')).status).toBe(404);
    expect((await app.admin.delete('/keys/doomed')).status).toBe(204);
    expect((await app.admin.get('/keys/doomed')).status).toBe(404);
    expect((await app.admin.get('/keys/doomed/b')).status).toBe(404);
  });

  it('serves the admin API under /admin as well', async () => {
    const plain = await app.admin.get(`/keys/${ID_TOKEN_SET}`);
    const prefixed = await app.admin.get(`/admin/keys/${ID_TOKEN_SET}`);
    expect(prefixed.status).toBe(200);
    expect(prefixed.body).toEqual(plain.body);
  });
});

describe('access', () => {
  const ROUTES: Array<[string, string, unknown]> = [
    ['GET', `/keys/${ID_TOKEN_SET}`, undefined],
    ['GET', `/keys/${ID_TOKEN_SET}/some-kid`, undefined],
    ['POST', '/keys/some-set', { alg: 'HS256' }],
    ['PUT', '/keys/some-set', { keys: [octJwk()] }],
    ['PUT', '/keys/some-set/some-kid', octJwk(32, 'HS256', 'some-kid')],
    ['DELETE', `/keys/${ID_TOKEN_SET}`, undefined],
    ['DELETE', `/keys/${ID_TOKEN_SET}/some-kid`, undefined],
  ];

  it.each(ROUTES)('%s %s needs the admin credential (401)', async (method, path, json) => {
    for (const token of [undefined, 'wrong-token-0123456789']) {
      const response = await app.anonymousAdmin.withToken(token).request(method, path, { json });
      expectError(response, 401, 'unauthorized');
    }
    expect((await getSet(ID_TOKEN_SET)).keys.length).toBeGreaterThan(0);
    expect((await app.admin.get('/keys/some-set')).status).toBe(404);
  });

  it.each(ROUTES)('%s %s does not exist on the public listener (404)', async (method, path, json) => {
    const response = await app.public.withToken(TEST_ADMIN_TOKEN).request(method, path, { json });
    expectError(response, 404, 'not_found');
  });

  it('serves the public JWKS on the public listener only, without credentials', async () => {
    const published = await app.public.get<{ keys: { kid: string }[] }>('/.well-known/jwks.json');
    expect(published.status).toBe(200);
    // The admin listener's JWKS is the decision pipeline's (the id_token mutator's keys), not this one.
    const decisions = await app.anonymousAdmin.get<{ keys: { kid: string }[] }>('/.well-known/jwks.json');
    expect(decisions.status).toBe(200);
    const oauthKids = new Set(published.body.keys.map((key) => key.kid));
    expect(decisions.body.keys.some((key) => oauthKids.has(key.kid))).toBe(false);
  });
});

describe('public JWKS', () => {
  it('holds public members only and never a symmetric key (S41)', async () => {
    await app.admin.post(`/keys/${ID_TOKEN_SET}`, { json: { alg: 'HS256', kid: 'id-token-secret' } });
    await app.admin.post(`/keys/${ID_TOKEN_SET}`, { json: { alg: 'EdDSA', kid: 'id-token-ed' } });
    await app.admin.post(`/keys/${ACCESS_TOKEN_SET}`, { json: { alg: 'HS512', kid: 'access-secret' } });
    await app.admin.post(`/keys/${ACCESS_TOKEN_SET}`, { json: { alg: 'ES384', kid: 'access-ec' } });
    await app.admin.post('/keys/unpublished', { json: { alg: 'ES256', kid: 'unpublished' } });
    const response = await app.public.get<JwkSet>('/.well-known/jwks.json');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const kids = response.body.keys.map((key) => key.kid);
    expect(kids).toEqual(expect.arrayContaining(['id-token-ed', 'access-ec']));
    expect(kids).not.toContain('id-token-secret');
    expect(kids).not.toContain('access-secret');
    expect(kids).not.toContain('unpublished');
    for (const key of response.body.keys) {
      expect(key.kty).not.toBe('oct');
      for (const member of PRIVATE_MEMBERS) expect(key, `${key.kid}.${member}`).not.toHaveProperty(member);
    }
    for (const member of PRIVATE_MEMBERS) expect(response.text).not.toContain(`"${member}":`);
    // ID-token keys come first, newest first.
    expect(kids.indexOf('id-token-ed')).toBeLessThan(kids.indexOf('access-ec'));
    for (const [set, kid] of [
      [ID_TOKEN_SET, 'id-token-secret'],
      [ID_TOKEN_SET, 'id-token-ed'],
      [ACCESS_TOKEN_SET, 'access-secret'],
      [ACCESS_TOKEN_SET, 'access-ec'],
    ]) {
      expect((await app.admin.delete(`/keys/${set}/${kid}`)).status).toBe(204);
    }
  });

  it('is invalidated at once on this instance when keys change, and answers 304 to a matching If-None-Match', async () => {
    const before = await app.public.get<JwkSet>('/.well-known/jwks.json');
    const etag = before.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect(before.headers.get('cache-control')).toBe('public, no-cache');
    const unchanged = await app.public.get('/.well-known/jwks.json', { headers: { 'if-none-match': etag } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');

    const added = await app.admin.post<JwkSet>(`/keys/${ACCESS_TOKEN_SET}`, { json: { alg: 'ES256' } });
    const kid = added.body.keys[0]!.kid;
    const after = await app.public.get<JwkSet>('/.well-known/jwks.json', { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(after.body.keys.map((key) => key.kid)).toContain(kid);

    expect((await app.admin.delete(`/keys/${ACCESS_TOKEN_SET}`)).status).toBe(204);
    const idTokenKeys = (await getSet(ID_TOKEN_SET)).keys.filter((key) => key.kty !== 'oct').map(publicPart);
    expect((await jwks()).keys).toEqual(idTokenKeys);
  });
});

describe('rotation', () => {
  it('signs with the newest key, keeps verifying with old keys until they are deleted', async () => {
    const keys = app.running.app.get(KeysService);
    const original = await keys.signingKey(ID_TOKEN_SET);
    const originalToken = await new SignJWT({ sub: 'a' }).setProtectedHeader({ alg: original.alg, kid: original.kid }).sign(original.key);
    expect(await verifyWithJwks(originalToken, await jwks())).toBe(original.kid);

    const added = await app.admin.post<JwkSet>(`/keys/${ID_TOKEN_SET}`, { json: { alg: 'ES256', kid: 'rotated-in' } });
    expect(added.status).toBe(201);
    const rotated = await keys.signingKey(ID_TOKEN_SET);
    expect(rotated).toMatchObject({ kid: 'rotated-in', alg: 'ES256' });
    const rotatedToken = await new SignJWT({ sub: 'b' }).setProtectedHeader({ alg: rotated.alg, kid: rotated.kid }).sign(rotated.key);
    const published = await jwks();
    expect(published.keys.map((key) => key.kid)).toEqual(['rotated-in', original.kid]);
    expect(await verifyWithJwks(rotatedToken, published)).toBe('rotated-in');
    expect(await verifyWithJwks(originalToken, published)).toBe(original.kid);
    expect((await keys.verificationKeys(ID_TOKEN_SET)).map((key) => key.kid)).toEqual(['rotated-in', original.kid]);

    // Keys that cannot sign (symmetric, enc, public-only) are skipped when choosing the signer.
    await app.admin.post(`/keys/${ID_TOKEN_SET}`, { json: { alg: 'HS256', kid: 'not-a-signer-1' } });
    await app.admin.post(`/keys/${ID_TOKEN_SET}`, { json: { alg: 'ES256', kid: 'not-a-signer-2', use: 'enc' } });
    await app.admin.put(`/keys/${ID_TOKEN_SET}/not-a-signer-3`, { json: publicPart(ecJwk('P-256', 'ES256', 'not-a-signer-3')) });
    expect((await keys.signingKey(ID_TOKEN_SET)).kid).toBe('rotated-in');
    for (const kid of ['not-a-signer-1', 'not-a-signer-2', 'not-a-signer-3']) await app.admin.delete(`/keys/${ID_TOKEN_SET}/${kid}`);

    expect((await app.admin.delete(`/keys/${ID_TOKEN_SET}/${original.kid}`)).status).toBe(204);
    const afterDelete = await jwks();
    expect(afterDelete.keys.map((key) => key.kid)).toEqual(['rotated-in']);
    await expect(verifyWithJwks(originalToken, afterDelete)).rejects.toThrow();
    expect((await keys.verificationKeys(ID_TOKEN_SET)).map((key) => key.kid)).toEqual(['rotated-in']);
  });

  it('recreates a deleted signing set with one RS256 key when something needs to sign with it', async () => {
    const keys = app.running.app.get(KeysService);
    expect((await app.admin.delete(`/keys/${ID_TOKEN_SET}`)).status).toBe(204);
    expect((await jwks()).keys).toEqual([]);
    const signing = await keys.signingKey(ID_TOKEN_SET);
    expect(signing.alg).toBe('RS256');
    const set = await getSet(ID_TOKEN_SET);
    expect(set.keys.map((key) => key.kid)).toEqual([signing.kid]);
    expect((await jwks()).keys.map((key) => key.kid)).toEqual([signing.kid]);
  });
});

describe('encryption at rest (S46)', () => {
  it('stores no private member in clear', async () => {
    const generated = await app.admin.post<JwkSet>('/keys/at-rest', { json: { alg: 'RS256', kid: 'generated-rsa' } });
    const imported = octJwk(64, 'HS512', 'imported-secret');
    await app.admin.put('/keys/at-rest/imported-secret', { json: imported });
    const ec = await app.admin.post<JwkSet>('/keys/at-rest', { json: { alg: 'ES256', kid: 'generated-ec' } });
    const secrets = [...PRIVATE_MEMBERS.map((member) => generated.body.keys[0]![member]), imported.k, ec.body.keys[0]!.d].filter(
      (value): value is string => typeof value === 'string',
    );
    expect(secrets.length).toBe(8);

    const rows = await queryDatabase(app.databaseUrl, `SELECT * FROM jwk_keys WHERE set_name = 'at-rest'`);
    expect(rows).toHaveLength(3);
    const dump = JSON.stringify(rows);
    for (const secret of secrets) {
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(Buffer.from(secret, 'base64url').toString('base64'));
      expect(dump).not.toContain(Buffer.from(secret, 'base64url').toString('hex'));
    }
    for (const row of rows) {
      expect(row['sealed_private']).toMatch(/^v1\./);
      for (const member of PRIVATE_MEMBERS) expect(row['public_jwk']).not.toHaveProperty(member);
    }
    // The public half is in clear, as served by the JWKS.
    expect(dump).toContain(generated.body.keys[0]!.n);
  });

  it('binds each sealed private part to its row: swapped rows do not decrypt (500 without internals)', async () => {
    await app.admin.put('/keys/swapped', { json: { keys: [octJwk(32, 'HS256', 'one'), octJwk(32, 'HS256', 'two')] } });
    await queryDatabase(
      app.databaseUrl,
      `UPDATE jwk_keys SET sealed_private = other.sealed_private
         FROM jwk_keys other
        WHERE jwk_keys.set_name = 'swapped' AND other.set_name = 'swapped' AND jwk_keys.kid <> other.kid`,
    );
    const response = await app.admin.get('/keys/swapped');
    expectError(response, 500, 'internal_error');
    expect(response.text).not.toMatch(/decrypt|secret|sealed|swapped|one|two/i);
    expect((await app.admin.get('/keys/swapped/one')).status).toBe(500);
    expect((await app.admin.delete('/keys/swapped')).status).toBe(204);
  });
});
