import { describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../crypto/digest.js';
import type { AppError } from '../errors/app-error.js';
import { ErrorKind } from '../errors/error-kind.js';
import { AdminCredentials } from './admin-credentials.js';
import { AdminTokenVerifiers } from './admin-token-verifiers.js';

const TOKEN = 'static-admin-token';

function credentials(auth: 'on' | 'off', verifiers = new AdminTokenVerifiers()): AdminCredentials {
  return new AdminCredentials({ auth, tokenDigests: [sha256Hex('another-token'), sha256Hex(TOKEN)] }, verifiers);
}

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a refusal');
}

describe('AdminCredentials', () => {
  it('admits a static token at once, without asking the verifiers', () => {
    const verifiers = new AdminTokenVerifiers();
    const asked = vi.spyOn(verifiers, 'anyAccepts');
    expect(credentials('on', verifiers).authorize(`Bearer ${TOKEN}`)).toBeUndefined();
    expect(credentials('on', verifiers).authorize(`bearer   ${TOKEN} `)).toBeUndefined();
    expect(asked).not.toHaveBeenCalled();
  });

  it('refuses at once without a bearer token, with the admin realm', () => {
    for (const header of [undefined, '', 'Bearer', `Basic ${TOKEN}`, `Bearer ${TOKEN} extra`]) {
      const error = refusal(() => credentials('on').authorize(header));
      expect(error.code, String(header)).toBe('unauthorized');
      expect(error.kind).toBe(ErrorKind.Unauthorized);
      expect(error.headers).toEqual({ 'www-authenticate': 'Bearer realm="admin"' });
    }
  });

  it('asks the verifiers on a miss, and refuses when none accepts', async () => {
    const verifiers = new AdminTokenVerifiers();
    verifiers.register({ isAdmin: (token) => Promise.resolve(token === 'issued') });
    await expect(credentials('on', verifiers).authorize('Bearer issued')).resolves.toBeUndefined();
    await expect(credentials('on', verifiers).authorize('Bearer wrong')).rejects.toMatchObject({
      code: 'unauthorized',
      kind: ErrorKind.Unauthorized,
    });
  });

  it('admits everyone when ADMIN_AUTH=off', () => {
    expect(credentials('off').authorize(undefined)).toBeUndefined();
    expect(credentials('off').authorize('Bearer wrong')).toBeUndefined();
  });
});
