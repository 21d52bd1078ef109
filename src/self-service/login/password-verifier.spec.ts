import { hash as argon2Hash, type Algorithm } from '@node-rs/argon2';
import { hash as bcryptHash } from '@node-rs/bcrypt';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.loader.js';
import { PasswordVerifier } from './password-verifier.js';
import { PasswordHashing } from '../../identities/index.js';

const ARGON2ID = 2 as Algorithm;
const PASSWORD = 'correct horse battery staple 42';

const config = loadConfig({}, '1.0.0');
const verifier = new PasswordVerifier(config.identities, new PasswordHashing(config.identities));

beforeAll(async () => {
  await verifier.onModuleInit();
});

describe('PasswordVerifier', () => {
  it('verifies argon2id hashes of any parameters', async () => {
    for (const options of [
      { memoryCost: 19_456, timeCost: 2, parallelism: 1 },
      { memoryCost: 8_192, timeCost: 3, parallelism: 2 },
    ]) {
      const hashed = await argon2Hash(PASSWORD, { algorithm: ARGON2ID, ...options });
      expect(await verifier.verify(PASSWORD, hashed)).toBe(true);
      expect(await verifier.verify(`${PASSWORD}!`, hashed)).toBe(false);
    }
  });

  it('verifies imported bcrypt hashes', async () => {
    const hashed = await bcryptHash(PASSWORD, 4);
    expect(await verifier.verify(PASSWORD, hashed)).toBe(true);
    expect(await verifier.verify('another password entirely', hashed)).toBe(false);
  });

  it('S55: a password over 72 bytes never matches a bcrypt hash, even one made of its first 72 bytes', async () => {
    const first72 = 'p'.repeat(72);
    const hashed = await bcryptHash(first72, 4);
    expect(await verifier.verify(first72, hashed)).toBe(true);
    expect(await verifier.verify(`${first72}anything after the limit`, hashed)).toBe(false);
    // 71 ASCII characters and a two-byte one: 73 bytes.
    expect(await verifier.verify(`${'p'.repeat(71)}é`, await bcryptHash(`${'p'.repeat(71)}é`, 4))).toBe(false);
  });

  it('no hash, or one of an unknown format, is never a match (a dummy argon2id check is spent instead)', async () => {
    expect(await verifier.verify(PASSWORD, undefined)).toBe(false);
    expect(await verifier.verify(PASSWORD, 'md5:5f4dcc3b5aa765d61d8327deb882cf99')).toBe(false);
    expect(await verifier.verify('', undefined)).toBe(false);
  });

  it('asks for a re-hash of bcrypt hashes and of argon2 hashes whose parameters differ from the configured ones', async () => {
    expect(verifier.needsRehash(await argon2Hash(PASSWORD, { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 }))).toBe(
      false,
    );
    expect(verifier.needsRehash(await argon2Hash(PASSWORD, { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 3, parallelism: 1 }))).toBe(
      true,
    );
    expect(verifier.needsRehash(await argon2Hash(PASSWORD, { algorithm: ARGON2ID, memoryCost: 8_192, timeCost: 2, parallelism: 1 }))).toBe(
      true,
    );
    expect(verifier.needsRehash('$argon2i$v=19$m=19456,t=2,p=1$c29tZXNhbHQ$aGFzaGhhc2hoYXNoaGFzaA')).toBe(true);
    expect(verifier.needsRehash(await bcryptHash(PASSWORD, 4))).toBe(true);
  });
});
