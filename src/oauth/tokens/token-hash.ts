import type { KeyAlgorithm } from '../../keys/index.js';
import { sha2Digest } from '../../common/crypto/digest.js';

/**
 * `at_hash` / `c_hash` (OIDC Core §3.1.3.6, §3.3.2.11): base64url of the left half of the hash of the
 * ASCII value, with the hash of the ID token's signing algorithm (SHA-512 for EdDSA with Ed25519).
 */
export function halfHash(alg: KeyAlgorithm, value: string): string {
  const digest = sha2Digest(hashOf(alg), value);
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

function hashOf(alg: KeyAlgorithm): 'sha256' | 'sha384' | 'sha512' {
  switch (alg) {
    case 'RS256':
    case 'PS256':
    case 'ES256':
    case 'HS256':
      return 'sha256';
    case 'ES384':
      return 'sha384';
    case 'RS512':
    case 'ES512':
    case 'HS512':
    case 'EdDSA':
      return 'sha512';
  }
}
