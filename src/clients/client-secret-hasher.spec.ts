import { describe, expect, it } from 'vitest';
import { ClientSecretHasher, PBKDF2_ITERATIONS } from './client-secret-hasher.js';

const hasher = new ClientSecretHasher();

describe('ClientSecretHasher', () => {
  it('encodes PBKDF2-SHA256 with its parameters: 25 000+ iterations, 16-byte salt, 32-byte key', async () => {
    const hash = await hasher.hash('correct horse battery staple');
    const [scheme, iterations, salt, key] = hash.split('$');
    expect(scheme).toBe('pbkdf2-sha256');
    expect(Number(iterations)).toBe(PBKDF2_ITERATIONS);
    expect(PBKDF2_ITERATIONS).toBeGreaterThanOrEqual(25_000);
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(key!, 'base64url')).toHaveLength(32);
    expect(hash).not.toContain('correct horse');
  });

  it('salts: the same secret hashes differently each time', async () => {
    expect(await hasher.hash('same-secret')).not.toBe(await hasher.hash('same-secret'));
  });

  it('verifies the right secret and refuses a wrong one', async () => {
    const hash = await hasher.hash('s3cret-value');
    await expect(hasher.verify('s3cret-value', hash)).resolves.toBe(true);
    await expect(hasher.verify('s3cret-valuE', hash)).resolves.toBe(false);
    await expect(hasher.verify('', hash)).resolves.toBe(false);
  });

  it('reads the iteration count from the stored hash', async () => {
    const hash = await hasher.hash('older-cost', 5_000);
    expect(hash.split('$')[1]).toBe('5000');
    await expect(hasher.verify('older-cost', hash)).resolves.toBe(true);
  });

  it.each([
    ['another scheme', 'bcrypt$10$abc$def'],
    ['no iterations', 'pbkdf2-sha256$$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['absurd iterations', 'pbkdf2-sha256$999999999$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['extra parts', 'pbkdf2-sha256$25000$a$b$c'],
    ['empty', ''],
  ])('never matches a malformed hash (%s)', async (_name, encoded) => {
    await expect(hasher.verify('anything', encoded)).resolves.toBe(false);
  });

  it('has a dummy hash that is a real hash of an unknown secret, made once', async () => {
    const dummy = await hasher.dummyHash();
    expect(dummy).toMatch(/^pbkdf2-sha256\$25000\$/);
    expect(await hasher.dummyHash()).toBe(dummy);
    await expect(hasher.verify('', dummy)).resolves.toBe(false);
  });
});
