import { verify } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.loader.js';
import { PasswordImport } from './password-import.js';
import { PasswordHashing } from './password-hashing.js';

const config = loadConfig({}, '1.0.0');
const passwords = new PasswordImport(config.identities, new PasswordHashing(config.identities));

describe('PasswordImport', () => {
  it('keeps a well-formed argon2 or bcrypt hash as given', async () => {
    for (const hashed of [
      '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHQ$aGFzaGhhc2hoYXNoaGFzaA',
      '$argon2i$v=19$m=4096,t=3,p=1$c29tZXNhbHQ$aGFzaGhhc2hoYXNoaGFzaA',
      '$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy',
      '$2y$04$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy',
    ]) {
      await expect(passwords.hashedPassword({ hashed_password: hashed })).resolves.toBe(hashed);
    }
  });

  it.each([
    [{ hashed_password: '$argon2d$v=19$m=19456,t=2,p=1$c29tZXNhbHQ$aGFzaA' }, 'credentials.password.config.hashed_password'],
    [{ hashed_password: '$2b$03$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy' }, 'credentials.password.config.hashed_password'],
    [{ hashed_password: '$2b$10$short' }, 'credentials.password.config.hashed_password'],
    [{ hashed_password: 'md5:abc' }, 'credentials.password.config.hashed_password'],
    [{}, 'credentials.password.config'],
    [{ hashed_password: '$2b$10$x', password: 'y' }, 'credentials.password.config'],
  ])('refuses %j naming %s', async (config, field) => {
    await expect(passwords.hashedPassword(config)).rejects.toMatchObject({ code: 'invalid_request', details: { field } });
  });

  it('hashes a clear-text password with argon2id at the configured cost', async () => {
    const hashed = await passwords.hashedPassword({ password: 'correct horse battery staple' });
    expect(hashed).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(hashed).not.toContain('correct horse');
    expect(await verify(hashed, 'correct horse battery staple')).toBe(true);
  });
});
