import { timingSafeEqual } from 'node:crypto';
import { hmacSha256, sha256Hex } from '../common/crypto/digest.js';
import { DirectorySyncError } from './directory-sync.errors.js';

/** `Service-Signature: t=<timestamp>,s=<hex>`, read strictly. */
export interface ServiceSignature {
  /** `t` exactly as sent: it is what was signed. */
  readonly rawTimestamp: string;
  /** `t` in milliseconds since the epoch. */
  readonly timestampMs: number;
  /** `s`: the HMAC-SHA256 as 32 bytes. */
  readonly digest: Buffer;
}

const TIMESTAMP = /^\d{1,16}$/;
/** Lower-case hex, as the sender's `digest('hex')` writes it. */
const HEX_SHA256 = /^[0-9a-f]{64}$/;
/**
 * Below this, `t` is plainly seconds (it would be a millisecond time in 2001); the sender sends
 * milliseconds, other senders of the same header seconds.
 */
const SECONDS_BELOW = 1_000_000_000_000;

/**
 * Parses the header: exactly two parts, `t` and `s`, each once; `t` decimal digits, `s` 64 lower-case
 * hex digits. Anything else (missing, repeated or extra parts, upper case, wrong length) is a 401.
 */
export function parseServiceSignature(header: string | undefined): ServiceSignature {
  if (header === undefined || header === '') throw DirectorySyncError.invalidSignature('missing');
  const parts = header.split(',');
  if (parts.length !== 2) throw DirectorySyncError.invalidSignature('expected exactly t=<timestamp>,s=<signature>');
  const values = new Map<string, string>();
  for (const part of parts) {
    const separator = part.indexOf('=');
    const name = separator < 0 ? part : part.slice(0, separator);
    if ((name !== 't' && name !== 's') || values.has(name) || separator < 0) {
      throw DirectorySyncError.invalidSignature('expected exactly t=<timestamp>,s=<signature>');
    }
    values.set(name, part.slice(separator + 1));
  }
  const rawTimestamp = values.get('t')!;
  const signature = values.get('s')!;
  if (!TIMESTAMP.test(rawTimestamp)) throw DirectorySyncError.invalidSignature('t must be a whole number');
  if (!HEX_SHA256.test(signature)) throw DirectorySyncError.invalidSignature('s must be 64 lower-case hex digits');
  const value = Number(rawTimestamp);
  return { rawTimestamp, timestampMs: value < SECONDS_BELOW ? value * 1000 : value, digest: Buffer.from(signature, 'hex') };
}

/** HMAC-SHA256 of `t + "." + body` (the raw bytes) with the secret, as the sender computes it. */
export function signatureOf(secret: string, rawTimestamp: string, body: Uint8Array): Buffer {
  return hmacSha256(secret, `${rawTimestamp}.`, body);
}

/**
 * True when one of the secrets made the signature. Every secret is tried (no early exit), and each
 * comparison takes constant time over equal-length digests.
 */
export function signedByAny(signature: ServiceSignature, body: Uint8Array, secrets: readonly string[]): boolean {
  let matched = false;
  for (const secret of secrets) {
    if (timingSafeEqual(signatureOf(secret, signature.rawTimestamp, body), signature.digest)) matched = true;
  }
  return matched;
}

/** Whether `t` lies within `toleranceMs` of `nowMs`, in the past or the future. */
export function isFresh(signature: ServiceSignature, nowMs: number, toleranceMs: number): boolean {
  return Math.abs(nowMs - signature.timestampMs) <= toleranceMs;
}

/** The key a replay of this exact delivery is recognised by. */
export function deliveryDigest(signature: ServiceSignature): string {
  return sha256Hex(`${signature.rawTimestamp}.`, signature.digest);
}
