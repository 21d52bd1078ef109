/** The algorithms a key may be generated or imported for (the `alg` of a stored key). */
export const KEY_ALGORITHMS = ['RS256', 'RS512', 'PS256', 'ES256', 'ES384', 'ES512', 'EdDSA', 'HS256', 'HS512'] as const;
export type KeyAlgorithm = (typeof KEY_ALGORITHMS)[number];

export const KEY_USES = ['sig', 'enc'] as const;
export type KeyUse = (typeof KEY_USES)[number];

export type KeyType = 'RSA' | 'EC' | 'OKP' | 'oct';

/** What a key must look like to serve an algorithm. */
export interface AlgorithmProfile {
  readonly kty: KeyType;
  /** The curve, for EC and OKP keys. */
  readonly crv?: 'P-256' | 'P-384' | 'P-521' | 'Ed25519';
  /** Length in bytes of each coordinate (EC, OKP) and of the private scalar. */
  readonly coordinateBytes?: number;
  /** Smallest HMAC secret: the hash output length (RFC 7518 §3.2). */
  readonly minSecretBytes?: number;
}

export const ALGORITHM_PROFILES: Readonly<Record<KeyAlgorithm, AlgorithmProfile>> = {
  RS256: { kty: 'RSA' },
  RS512: { kty: 'RSA' },
  PS256: { kty: 'RSA' },
  ES256: { kty: 'EC', crv: 'P-256', coordinateBytes: 32 },
  ES384: { kty: 'EC', crv: 'P-384', coordinateBytes: 48 },
  ES512: { kty: 'EC', crv: 'P-521', coordinateBytes: 66 },
  EdDSA: { kty: 'OKP', crv: 'Ed25519', coordinateBytes: 32 },
  HS256: { kty: 'oct', minSecretBytes: 32 },
  HS512: { kty: 'oct', minSecretBytes: 64 },
};

/** RSA moduli accepted on import; generated RSA keys have 2048 bits. */
export const RSA_MIN_BITS = 2048;
export const RSA_MAX_BITS = 8192;
export const RSA_GENERATED_BITS = 2048;
/** Upper bound for imported HMAC secrets. */
export const MAX_SECRET_BYTES = 1024;

export function isKeyAlgorithm(value: unknown): value is KeyAlgorithm {
  return typeof value === 'string' && (KEY_ALGORITHMS as readonly string[]).includes(value);
}
