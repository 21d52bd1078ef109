import { randomBytes } from 'node:crypto';
import { hmacSha256Hex } from '../common/crypto/digest.js';

/** A recovery or verification link token: 256 random bits, base64url. */
export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored of a link token: HMAC-SHA256 under a system secret, hex (64 characters). */
export function linkTokenHmac(secret: string, token: string): string {
  return hmacSha256Hex(secret, token);
}
