import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, generateSecret } from 'jose';
import { ALGORITHM_PROFILES, RSA_GENERATED_BITS, type KeyAlgorithm, type KeyUse } from './key-algorithms.js';
import { validateJwk, type ValidatedKey } from './key-validator.js';

/**
 * A new key for `alg` (extractable, so it can be encrypted and stored), put through the same checks
 * as an imported one so both paths produce the same canonical form. RSA keys have 2048 bits: cheap
 * enough to sign ID tokens on every request (see docs/keys.md); generation takes ~100 ms and more, which
 * is fine for an admin call.
 */
export async function generateKey(alg: KeyAlgorithm, use: KeyUse, kid: string = randomUUID()): Promise<ValidatedKey> {
  const profile = ALGORITHM_PROFILES[alg];
  const key =
    profile.kty === 'oct'
      ? await generateSecret(alg, { extractable: true })
      : (
          await generateKeyPair(alg, {
            extractable: true,
            ...(profile.kty === 'RSA' ? { modulusLength: RSA_GENERATED_BITS } : {}),
            ...(profile.crv === 'Ed25519' ? { crv: 'Ed25519' } : {}),
          })
        ).privateKey;
  const jwk = await exportJWK(key);
  return validateJwk({ ...jwk, kid, alg, use });
}
