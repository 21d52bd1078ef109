import { timingSafeEqual } from 'node:crypto';
import { sha256Base64url } from '../../common/crypto/digest.js';
import { TokenError } from '../tokens/token.errors.js';

/** RFC 7636 §4.1: 43–128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/**
 * PKCE at the token endpoint (RFC 7636 §4.6, S256 only). A code issued with a challenge needs the
 * matching verifier. A code issued without one refuses a verifier (RFC 9700 §4.8.2: a downgrade), and
 * a public client must have used PKCE at all (RFC 9700 §2.1.1). Every failure is `invalid_grant`.
 */
export function checkPkce(challenge: string | null, verifier: string | undefined, publicClient: boolean): void {
  if (challenge === null) {
    if (verifier !== undefined)
      throw TokenError.invalidGrant('code_verifier was sent but the authorization request had no code_challenge.');
    if (publicClient) throw TokenError.invalidGrant('Public clients must use PKCE: the authorization request had no code_challenge.');
    return;
  }
  if (verifier === undefined) throw TokenError.invalidGrant('The code_verifier is missing.');
  if (!VERIFIER.test(verifier)) throw TokenError.invalidGrant('The code_verifier must be 43 to 128 characters of [A-Za-z0-9-._~].');
  const computed = Buffer.from(sha256Base64url(verifier));
  const expected = Buffer.from(challenge);
  if (computed.length !== expected.length || !timingSafeEqual(computed, expected)) {
    throw TokenError.invalidGrant('The code_verifier does not match the code_challenge.');
  }
}
