import { createHash, createHmac, hash, type KeyObject } from 'node:crypto';

/*
 * The one place the service hashes. Every function takes a string and hashes its UTF-8 bytes (for the
 * ASCII values most of them see, tokens and verifiers, the same bytes as their ASCII encoding). Several
 * of these values are stored, so an encoding here must never change: the stored hashes would stop
 * matching.
 */

/**
 * SHA-256, hex (64 characters): how secrets we hand out are stored or compared when their digest
 * needs no key (admin tokens, session and flow tokens, one-time JWT ids, webhook deliveries), and
 * pairwise subjects. Several parts are hashed one after the other, as if joined (raw bytes as they are).
 */
export function sha256Hex(...parts: readonly (string | Uint8Array)[]): string {
  // One part is nearly every call (a token on a hot path: admin credentials, sessions): the one-shot
  // digest costs about half of a Hash object's, which is only built to join several parts.
  if (parts.length === 1) return hash('sha256', parts[0]!, 'hex');
  const joined = createHash('sha256');
  for (const part of parts) joined.update(part);
  return joined.digest('hex');
}

/**
 * SHA-256, base64url without padding (43 characters): the encoding of the JOSE world, kept where the
 * value lives beside JWTs or in HTTP (JWT access token keys, PKCE S256 challenges, ETags, cache keys).
 * A different stored form from `sha256Hex` for historical reasons: both are in existing databases.
 */
export function sha256Base64url(value: string): string {
  return hash('sha256', value, 'base64url');
}

/** SHA-256, standard base64 with padding: the form CSP hash sources (`'sha256-…'`) require. */
export function sha256Base64(value: string): string {
  return hash('sha256', value, 'base64');
}

/**
 * The raw digest with a SHA-2 of the given size, for the values whose size follows a signing
 * algorithm (OIDC `at_hash` / `c_hash`), and where the bytes themselves are compared (admin tokens
 * against their stored digests: no hex string made and parsed back on every admin request).
 */
export function sha2Digest(algorithm: 'sha256' | 'sha384' | 'sha512', value: string): Buffer {
  return hash(algorithm, value, 'buffer');
}

/**
 * HMAC-SHA256, raw bytes: a keyed digest for values that must not be recomputable from the database
 * alone (opaque token signatures, the secret-verification cache). Pass a KeyObject on hot paths: the
 * key is then not imported again on every call.
 */
export function hmacSha256(key: KeyObject | string, ...parts: readonly (string | Uint8Array)[]): Buffer {
  const hmac = createHmac('sha256', key);
  for (const part of parts) hmac.update(part);
  return hmac.digest();
}

/** HMAC-SHA256, base64url without padding: tokens handed to browsers (CSRF, logout tokens), never stored. */
export function hmacSha256Base64url(key: KeyObject | string, value: string): string {
  return createHmac('sha256', key).update(value, 'utf8').digest('base64url');
}

/**
 * SHA-1, upper-case hex: only because the breached-password range API is keyed by it (k-anonymity:
 * five hex digits leave the process). Never for anything this service stores or trusts.
 */
export function sha1HexForRangeApi(value: string): string {
  return createHash('sha1').update(value, 'utf8').digest('hex').toUpperCase();
}

/** HMAC-SHA256, hex: how recovery and verification link tokens are stored. */
export function hmacSha256Hex(key: KeyObject | string, value: string): string {
  return createHmac('sha256', key).update(value, 'utf8').digest('hex');
}
