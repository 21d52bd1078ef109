import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { KeysError, KeysErrorCode } from '../../src/keys/keys.errors.js';
import { KeysService } from '../../src/keys/keys.service.js';
import { bootApp, type TestApp } from '../support/app.js';
import { freshDatabase, queryDatabase } from '../support/database.js';
import { verifyWithJwks, type JwkSet } from '../support/jwk.js';

const ID_TOKEN_SET = 'openid.id-token';
const SECRET_A = 'rotation-secret-aaaaaaaaaaaaaaaa';
const SECRET_B = 'rotation-secret-bbbbbbbbbbbbbbbb';

const running: TestApp[] = [];

async function boot(databaseUrl: string, env: Record<string, string> = {}): Promise<TestApp> {
  const app = await bootApp(env, { databaseUrl });
  running.push(app);
  return app;
}

async function stop(app: TestApp): Promise<void> {
  running.splice(running.indexOf(app), 1);
  await app.close();
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.close()));
});

async function jwksOf(app: TestApp): Promise<JwkSet> {
  const response = await app.public.get<JwkSet>('/.well-known/jwks.json');
  expect(response.status).toBe(200);
  return response.body;
}

async function kidsOf(app: TestApp): Promise<string[]> {
  return (await jwksOf(app)).keys.map((key) => key.kid);
}

describe('restarts', () => {
  it('keep every key, private parts included, and the same signing key', async () => {
    const url = await freshDatabase();
    const first = await boot(url);
    await first.admin.post('/keys/durable', { json: { alg: 'RS256', kid: 'rsa' } });
    await first.admin.post('/keys/durable', { json: { alg: 'HS512', kid: 'hmac' } });
    const before = await first.admin.get<JwkSet>('/keys/durable');
    const idTokenBefore = await first.admin.get<JwkSet>(`/keys/${ID_TOKEN_SET}`);
    const jwksBefore = await jwksOf(first);
    const signerBefore = (await first.running.app.get(KeysService).signingKey(ID_TOKEN_SET)).kid;
    await stop(first);

    const second = await boot(url);
    expect((await second.admin.get<JwkSet>('/keys/durable')).body).toEqual(before.body);
    expect((await second.admin.get<JwkSet>(`/keys/${ID_TOKEN_SET}`)).body).toEqual(idTokenBefore.body);
    expect(idTokenBefore.body.keys).toHaveLength(1);
    expect(await jwksOf(second)).toEqual(jwksBefore);
    expect((await second.running.app.get(KeysService).signingKey(ID_TOKEN_SET)).kid).toBe(signerBefore);
  });
});

describe('secret rotation', () => {
  it('reads keys sealed under an older secret while it is listed; without it they fail with a 500 that says nothing', async () => {
    const url = await freshDatabase();
    const underA = await boot(url, { SECRETS_SYSTEM: SECRET_A });
    const created = await underA.admin.post<JwkSet>('/keys/rotating', { json: { alg: 'ES256', kid: 'sealed-under-a' } });
    const idToken = await underA.admin.get<JwkSet>(`/keys/${ID_TOKEN_SET}`);
    await stop(underA);

    // B first (seals), A still listed (opens): everything stays readable; new keys are sealed under B.
    const rotated = await boot(url, { SECRETS_SYSTEM: `${SECRET_B},${SECRET_A}` });
    expect((await rotated.admin.get<JwkSet>('/keys/rotating')).body).toEqual(created.body);
    expect((await rotated.admin.get<JwkSet>(`/keys/${ID_TOKEN_SET}`)).body).toEqual(idToken.body);
    await rotated.admin.post('/keys/rotating', { json: { alg: 'ES256', kid: 'sealed-under-b' } });
    const sealedWith = await queryDatabase<{ kid: string; key_id: string }>(
      url,
      `SELECT kid, split_part(sealed_private, '.', 2) AS key_id FROM jwk_keys WHERE set_name = 'rotating'`,
    );
    const keyIds = new Map(sealedWith.map((row) => [row.kid, row.key_id]));
    expect(keyIds.get('sealed-under-a')).not.toBe(keyIds.get('sealed-under-b'));
    await stop(rotated);

    // A dropped: keys sealed under A no longer open. The service still boots and serves the public JWKS.
    const onlyB = await boot(url, { SECRETS_SYSTEM: SECRET_B });
    for (const path of ['/keys/rotating', '/keys/rotating/sealed-under-a', `/keys/${ID_TOKEN_SET}`]) {
      const response = await onlyB.admin.get(path);
      expect(response.status).toBe(500);
      expect(response.body).toMatchObject({ error: 'internal_error', status_code: 500 });
      expect(response.body).not.toHaveProperty('debug');
      expect(response.text).not.toMatch(/secret|decrypt|sealed|rotating/i);
    }
    expect((await onlyB.admin.get<JwkSet>('/keys/rotating/sealed-under-b')).status).toBe(200);
    expect((await jwksOf(onlyB)).keys.map((key) => key.kid)).toEqual(idToken.body.keys.map((key) => key.kid));
    const failure = await onlyB.running.app
      .get(KeysService)
      .signingKey(ID_TOKEN_SET)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(KeysError);
    expect((failure as KeysError).reason).toBe(KeysErrorCode.Undecryptable);
    await stop(onlyB);
  });

  it('lets an old secret go once the sets are written again under the new one', async () => {
    const url = await freshDatabase();
    const underA = await boot(url, { SECRETS_SYSTEM: SECRET_A });
    const original = await underA.admin.get<JwkSet>(`/keys/${ID_TOKEN_SET}`);
    await stop(underA);

    const rotated = await boot(url, { SECRETS_SYSTEM: `${SECRET_B},${SECRET_A}` });
    const read = await rotated.admin.get<JwkSet>(`/keys/${ID_TOKEN_SET}`);
    expect((await rotated.admin.put(`/keys/${ID_TOKEN_SET}`, { json: read.body })).status).toBe(200);
    await stop(rotated);

    const onlyB = await boot(url, { SECRETS_SYSTEM: SECRET_B });
    expect((await onlyB.admin.get<JwkSet>(`/keys/${ID_TOKEN_SET}`)).body).toEqual(original.body);
  });
});

describe('several instances on one database', () => {
  it('create the ID-token set once when they start together', async () => {
    const url = await freshDatabase();
    const apps = await Promise.all([boot(url), boot(url), boot(url)]);
    const rows = await queryDatabase(url, `SELECT kid FROM jwk_keys WHERE set_name = $1`, [ID_TOKEN_SET]);
    expect(rows).toHaveLength(1);
    const kid = rows[0]!['kid'] as string;
    for (const app of apps) {
      expect(await kidsOf(app)).toEqual([kid]);
      expect((await app.running.app.get(KeysService).signingKey(ID_TOKEN_SET)).kid).toBe(kid);
    }
  });

  it('invalidate each other’s JWKS and signing-key caches', async () => {
    const url = await freshDatabase();
    const a = await boot(url);
    const b = await boot(url);
    const [original] = await kidsOf(b);
    const serviceB = b.running.app.get(KeysService);
    expect((await serviceB.signingKey(ID_TOKEN_SET)).kid).toBe(original);

    const added = await a.admin.post<JwkSet>(`/keys/${ID_TOKEN_SET}`, { json: { alg: 'ES256', kid: 'added-on-a' } });
    expect(added.status).toBe(201);
    await expect.poll(() => kidsOf(b), { timeout: 5000, interval: 50 }).toEqual(['added-on-a', original]);
    await expect.poll(async () => (await serviceB.signingKey(ID_TOKEN_SET)).kid, { timeout: 5000, interval: 50 }).toBe('added-on-a');

    // A token signed on B verifies against the JWKS that A serves.
    const signer = await serviceB.signingKey(ID_TOKEN_SET);
    const token = await new SignJWT({ sub: 'x' }).setProtectedHeader({ alg: signer.alg, kid: signer.kid }).sign(signer.key);
    expect(await verifyWithJwks(token, await jwksOf(a))).toBe('added-on-a');

    expect((await a.admin.delete(`/keys/${ID_TOKEN_SET}/added-on-a`)).status).toBe(204);
    await expect.poll(() => kidsOf(b), { timeout: 5000, interval: 50 }).toEqual([original]);
    await expect.poll(async () => (await serviceB.signingKey(ID_TOKEN_SET)).kid, { timeout: 5000, interval: 50 }).toBe(original);

    await a.admin.post('/keys/openid.jwt-access-token', { json: { alg: 'EdDSA', kid: 'access-on-a' } });
    await expect.poll(() => kidsOf(b), { timeout: 5000, interval: 50 }).toEqual([original, 'access-on-a']);
  });
});
