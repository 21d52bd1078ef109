import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../common/crypto/digest.js';

/** 32 random bytes: 256 bits (RFC 6749 §10.10 asks for at least 128), 43 URL-safe characters. */
const SECRET_BYTES = 32;

/** A fresh challenge, verifier, CSRF value or session cookie value. */
export function newFlowSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/** What is stored of a flow secret: its SHA-256 (hex). The secrets are random, so no salt or key is needed. */
export function digestOf(secret: string): string {
  return sha256Hex(secret);
}

/** Whether a value the browser brought (a CSRF cookie) is the one whose digest was stored; constant time. */
export function matchesDigest(value: string | undefined, storedDigest: string): boolean {
  if (value === undefined || value === '') return false;
  const presented = Buffer.from(digestOf(value), 'hex');
  const stored = Buffer.from(storedDigest, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
