import { createSecretKey, hkdfSync, randomFillSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { hmacSha256, sha256Base64url } from '../../common/crypto/digest.js';
import { type SecretsConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';

export type OpaqueTokenKind = 'access_token' | 'refresh_token' | 'authorization_code';

/** Token prefixes: tell the kinds apart at a glance and let secret scanners find leaked tokens. */
export const TOKEN_PREFIXES: Readonly<Record<OpaqueTokenKind, string>> = {
  access_token: 'lk_at_',
  refresh_token: 'lk_rt_',
  authorization_code: 'lk_ac_',
};

/** 32 random bytes: 256 bits, far above RFC 6749 §10.10's 2^-160 guessing bound. */
const RANDOM_BYTES = 32;
/** Random bytes are drawn from the CSPRNG this many tokens at a time (one call instead of 128). */
const RANDOM_POOL_TOKENS = 128;
const HKDF_INFO = 'latchkey oauth2 token signature v1';
const OPAQUE_TOKEN = /^lk_(at|rt|ac)_([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/;
const KIND_BY_TAG: Readonly<Record<string, OpaqueTokenKind>> = { at: 'access_token', rt: 'refresh_token', ac: 'authorization_code' };
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.([A-Za-z0-9_-]+)$/;

export interface MintedToken {
  /** What the client gets: `<prefix><random>.<signature>`. */
  readonly token: string;
  /** What is stored and looked up: HMAC-SHA256 of prefix + random under the first system secret. */
  readonly signature: string;
}

/**
 * Opaque tokens (codes, access and refresh tokens): `<prefix><random>.<signature>`, where signature =
 * base64url(HMAC-SHA256(key, prefix + random)) and key = HKDF-SHA256 of a system secret. Only the
 * signature is stored, so a database leak yields no usable token; a token whose signature does not
 * verify under any system secret is refused without touching the database. The first secret signs,
 * every secret verifies, so SECRETS_SYSTEM can rotate without cutting off issued tokens.
 */
@Injectable()
export class TokenCodec {
  /** KeyObjects rather than Buffers: the HMAC then skips importing the key on every token. */
  private readonly keys: readonly KeyObject[];
  private readonly pool = Buffer.alloc(RANDOM_BYTES * RANDOM_POOL_TOKENS);
  private poolOffset = this.pool.length;

  constructor(@InjectConfig('secrets') secrets: SecretsConfig) {
    this.keys = secrets.system.map((secret) => createSecretKey(Buffer.from(hkdfSync('sha256', secret, '', HKDF_INFO, 32))));
    if (this.keys.length === 0) throw new Error('SECRETS_SYSTEM holds no secret: tokens cannot be signed');
  }

  mint(kind: OpaqueTokenKind): MintedToken {
    const body = TOKEN_PREFIXES[kind] + this.random().toString('base64url');
    const signature = this.sign(this.keys[0]!, body).toString('base64url');
    return { token: `${body}.${signature}`, signature };
  }

  /** The kind of a presented token: one of ours by its prefix, `jwt` for anything shaped like a JWT. */
  kindOf(token: string): OpaqueTokenKind | 'jwt' | undefined {
    const match = OPAQUE_TOKEN.exec(token);
    if (match !== null) return KIND_BY_TAG[match[1]!];
    return JWT_SHAPE.test(token) ? 'jwt' : undefined;
  }

  /** The stored signature of a presented opaque token of this kind, or undefined when we did not mint it. */
  signatureOf(kind: OpaqueTokenKind, token: string): string | undefined {
    const match = OPAQUE_TOKEN.exec(token);
    if (match === null || KIND_BY_TAG[match[1]!] !== kind) return undefined;
    const body = token.slice(0, token.lastIndexOf('.'));
    const presented = Buffer.from(match[3]!, 'base64url');
    if (presented.length !== 32) return undefined;
    let valid = false;
    for (const key of this.keys) valid = timingSafeEqual(this.sign(key, body), presented) || valid;
    // Re-encoded: a non-canonical last character decodes to the same bytes and must find the same row.
    return valid ? presented.toString('base64url') : undefined;
  }

  /**
   * The stored key of a JWT access token: SHA-256 of its signature part. The JWT itself is never
   * stored; its signature is unpredictable and binds the whole token, so its digest identifies it.
   */
  jwtSignatureOf(token: string): string | undefined {
    const match = JWT_SHAPE.exec(token);
    return match === null ? undefined : sha256Base64url(match[1]!);
  }

  /** Fresh CSPRNG bytes, each used once; the pool is refilled whole when used up. */
  private random(): Buffer {
    if (this.poolOffset + RANDOM_BYTES > this.pool.length) {
      randomFillSync(this.pool);
      this.poolOffset = 0;
    }
    const bytes = this.pool.subarray(this.poolOffset, this.poolOffset + RANDOM_BYTES);
    this.poolOffset += RANDOM_BYTES;
    return bytes;
  }

  private sign(key: KeyObject, body: string): Buffer {
    return hmacSha256(key, body);
  }
}
