import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { SecretBoxError } from './secret-box.error.js';

const VERSION = 'v1';
const SALT = 'latchkey/secret-box/v1';
const KEY_BYTES = 32;
const KEY_ID_BYTES = 8;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

interface DerivedKey {
  /** Public, stable name of the secret within this purpose: recorded in every value it seals. */
  readonly id: string;
  readonly key: Buffer;
}

/**
 * Authenticated encryption at rest (AES-256-GCM) under a rotating list of secrets (`SECRETS_SYSTEM`):
 * the first secret seals, every secret opens.
 *
 * - One AES key per secret and purpose, derived with HKDF-SHA256, so the same secret used by two
 *   contexts (or for signing elsewhere) never yields the same key.
 * - A random 96-bit IV per value.
 * - The sealed value is self-describing text: `v1.<key id>.<iv>.<ciphertext>.<tag>` (base64url parts).
 *   The key id is derived from the secret (not its position in the list), so reordering or adding
 *   secrets never confuses which one opens a value, and a value sealed under a dropped secret is
 *   reported as such instead of as tampering.
 * - The caller's associated data (e.g. the row a value belongs to) is authenticated together with the
 *   version and key id: a value copied to another row, or a header edited, fails to open.
 */
export class SecretBox {
  private readonly sealing: DerivedKey;
  private readonly opening: ReadonlyMap<string, DerivedKey>;

  /** @param purpose domain separation label, e.g. `jwk-private`; values sealed for one purpose never open under another. */
  constructor(secrets: readonly string[], purpose: string) {
    if (secrets.length === 0) throw new Error('SecretBox needs at least one secret');
    if (purpose === '') throw new Error('SecretBox needs a purpose');
    const derived = secrets.map((secret) => derive(secret, purpose));
    this.sealing = derived[0]!;
    this.opening = new Map(derived.map((key) => [key.id, key]));
  }

  seal(plaintext: Uint8Array | string, associatedData: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealing.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(authenticatedData(this.sealing.id, associatedData));
    const data = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext;
    const ciphertext = Buffer.concat([cipher.update(data), cipher.final()]);
    return [VERSION, this.sealing.id, encode(iv), encode(ciphertext), encode(cipher.getAuthTag())].join('.');
  }

  /** @throws SecretBoxError when the value is malformed, sealed under an unknown secret, or fails authentication. */
  open(sealed: string, associatedData: string): Buffer {
    const parts = sealed.split('.');
    if (parts.length !== 5 || parts[0] !== VERSION || !parts.every((part) => BASE64URL.test(part))) {
      throw new SecretBoxError('malformed', 'The sealed value is not in a known format.');
    }
    const [, keyId, ivText, ciphertextText, tagText] = parts as [string, string, string, string, string];
    const iv = Buffer.from(ivText, 'base64url');
    const tag = Buffer.from(tagText, 'base64url');
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
      throw new SecretBoxError('malformed', 'The sealed value is not in a known format.');
    }
    const derived = this.opening.get(keyId);
    if (derived === undefined) {
      throw new SecretBoxError('unknown_secret', `The value was sealed under a secret that is not configured (key id ${keyId}).`);
    }
    const decipher = createDecipheriv('aes-256-gcm', derived.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(authenticatedData(keyId, associatedData));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(Buffer.from(ciphertextText, 'base64url')), decipher.final()]);
    } catch {
      throw new SecretBoxError('authentication_failed', 'The sealed value does not authenticate.');
    }
  }

  openString(sealed: string, associatedData: string): string {
    return this.open(sealed, associatedData).toString('utf8');
  }

  /** True when the value is sealed under the first secret; false means re-sealing it lets an old secret go. */
  isSealedWithCurrentSecret(sealed: string): boolean {
    return sealed.split('.', 2)[1] === this.sealing.id;
  }
}

function derive(secret: string, purpose: string): DerivedKey {
  const ikm = Buffer.from(secret, 'utf8');
  const key = Buffer.from(hkdfSync('sha256', ikm, SALT, `${purpose}/aes-256-gcm`, KEY_BYTES));
  const id = encode(Buffer.from(hkdfSync('sha256', ikm, SALT, `${purpose}/key-id`, KEY_ID_BYTES)));
  return { id, key };
}

/** Version and key id are authenticated with the caller's data; the NUL keeps the two unambiguous. */
function authenticatedData(keyId: string, associatedData: string): Buffer {
  return Buffer.concat([Buffer.from(`${VERSION}.${keyId}`, 'utf8'), Buffer.from([0]), Buffer.from(associatedData, 'utf8')]);
}

function encode(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}
