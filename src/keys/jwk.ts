import type { JWK } from 'jose';
import type { KeyAlgorithm, KeyType, KeyUse } from './key-algorithms.js';

/** Members that carry public key material, by key type. */
export const PUBLIC_MEMBERS: Readonly<Record<KeyType, readonly PublicMember[]>> = {
  RSA: ['n', 'e'],
  EC: ['crv', 'x', 'y'],
  OKP: ['crv', 'x'],
  oct: [],
};

/**
 * Members that carry private or secret material, by key type, as Latchkey stores them: never published,
 * encrypted at rest. Two-prime RSA only: the import DTO refuses `oth`.
 */
export const PRIVATE_MEMBERS: Readonly<Record<KeyType, readonly PrivateMember[]>> = {
  RSA: ['d', 'p', 'q', 'dp', 'dq', 'qi'],
  EC: ['d'],
  OKP: ['d'],
  oct: ['k'],
};

/**
 * Every JWK member that carries private or symmetric material, whatever the key type (RFC 7518 §6.2.2,
 * §6.3.2, §6.4.1; `oth` holds a multi-prime RSA key's other primes): what a key offered as public must
 * not hold. The one list for the service: client key sets are checked against it.
 */
export const PRIVATE_JWK_MEMBERS: readonly (PrivateMember | 'oth')[] = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

export type PublicMember = 'crv' | 'x' | 'y' | 'n' | 'e';
export type PrivateMember = 'd' | 'p' | 'q' | 'dp' | 'dq' | 'qi' | 'k';

/** The public view of a stored key: what the public JWKS may show (symmetric keys excepted). */
export interface PublicJwk {
  readonly kid: string;
  readonly kty: KeyType;
  readonly alg: KeyAlgorithm;
  readonly use?: KeyUse;
  readonly crv?: string;
  readonly x?: string;
  readonly y?: string;
  readonly n?: string;
  readonly e?: string;
  readonly x5c?: readonly string[];
}

export type PrivateJwkMembers = Readonly<Partial<Record<PrivateMember, string>>>;

/** A whole key as the admin API shows it: public view plus private members when the key has them. */
export type FullJwk = PublicJwk & PrivateJwkMembers;

/** Only the key members, without kid/use/alg/x5c, which WebCrypto would check against the usages it imports for. */
export function keyMaterial(jwk: PublicJwk): JWK {
  const out: JWK = { kty: jwk.kty };
  for (const member of PUBLIC_MEMBERS[jwk.kty]) {
    const value = jwk[member];
    if (value !== undefined) out[member] = value;
  }
  return out;
}
