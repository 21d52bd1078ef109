import { pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { Injectable } from '@nestjs/common';

const pbkdf2Async = promisify(pbkdf2);

const SCHEME = 'pbkdf2-sha256';
/** Hydra's default for client secrets (oauth2.hashers.pbkdf2.iterations); stored with each hash. */
export const PBKDF2_ITERATIONS = 25_000;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Bounds on iterations read back from a stored hash, so a damaged row cannot stall the event loop pool. */
const MIN_ITERATIONS = 1_000;
const MAX_ITERATIONS = 10_000_000;

/**
 * Client secrets at rest: PBKDF2-HMAC-SHA256 with a random salt, encoded with its parameters as
 * `pbkdf2-sha256$25000$<salt>$<key>` (base64url), so the cost can be raised later without breaking
 * stored hashes. Runs on the libuv pool, off the event loop.
 */
@Injectable()
export class ClientSecretHasher {
  private dummy: Promise<string> | undefined;

  async hash(secret: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await pbkdf2Async(secret, salt, iterations, KEY_BYTES, 'sha256');
    return [SCHEME, String(iterations), salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  /** Constant-time check of `secret` against an encoded hash. A malformed hash never matches. */
  async verify(secret: string, encoded: string): Promise<boolean> {
    const parsed = parse(encoded);
    if (parsed === undefined) return false;
    const key = await pbkdf2Async(secret, parsed.salt, parsed.iterations, parsed.key.length, 'sha256');
    return timingSafeEqual(key, parsed.key);
  }

  /**
   * A valid hash of a random secret nobody knows. Verifying against it costs what a real check costs,
   * so an unknown client cannot be told from a wrong secret by timing.
   */
  dummyHash(): Promise<string> {
    this.dummy ??= this.hash(randomBytes(32).toString('base64url'));
    return this.dummy;
  }
}

function parse(encoded: string): { iterations: number; salt: Buffer; key: Buffer } | undefined {
  const [scheme, rawIterations, salt, key, ...rest] = encoded.split('$');
  if (scheme !== SCHEME || rest.length > 0 || rawIterations === undefined || salt === undefined || key === undefined) return undefined;
  if (!/^\d+$/.test(rawIterations)) return undefined;
  const iterations = Number(rawIterations);
  if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) return undefined;
  const saltBytes = Buffer.from(salt, 'base64url');
  const keyBytes = Buffer.from(key, 'base64url');
  if (saltBytes.length < 8 || keyBytes.length < 16) return undefined;
  return { iterations, salt: saltBytes, key: keyBytes };
}
