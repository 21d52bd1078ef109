import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TokenError } from '../tokens/token.errors.js';
import { checkPkce } from './pkce.js';

const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
// RFC 7636 Appendix B.
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

function codeOf(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof TokenError ? error.code : 'unexpected';
  }
}

describe('checkPkce', () => {
  it('accepts the RFC 7636 example pair', () => {
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(challenge);
    expect(codeOf(() => checkPkce(challenge, verifier, true))).toBeUndefined();
  });

  it('S24: refuses a missing, wrong, too short, too long or badly formed verifier', () => {
    expect(codeOf(() => checkPkce(challenge, undefined, false))).toBe('invalid_grant');
    expect(codeOf(() => checkPkce(challenge, `${verifier.slice(0, -1)}A`, false))).toBe('invalid_grant');
    expect(codeOf(() => checkPkce(challenge, 'a'.repeat(42), false))).toBe('invalid_grant');
    expect(codeOf(() => checkPkce(challenge, 'a'.repeat(129), false))).toBe('invalid_grant');
    expect(codeOf(() => checkPkce(challenge, `${'a'.repeat(43)}!`, false))).toBe('invalid_grant');
  });

  it('S23: refuses a verifier for a code issued without a challenge (downgrade)', () => {
    expect(codeOf(() => checkPkce(null, verifier, false))).toBe('invalid_grant');
  });

  it('requires PKCE of public clients and not of confidential ones', () => {
    expect(codeOf(() => checkPkce(null, undefined, true))).toBe('invalid_grant');
    expect(codeOf(() => checkPkce(null, undefined, false))).toBeUndefined();
  });
});
