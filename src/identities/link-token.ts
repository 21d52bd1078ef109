import { createHmac, randomBytes } from 'node:crypto';

/** A recovery or verification link token: 256 random bits, base64url. */
export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored of a link token: HMAC-SHA256 under a system secret, hex (64 characters). */
export function linkTokenHmac(secret: string, token: string): string {
  return createHmac('sha256', secret).update(token, 'utf8').digest('hex');
}
