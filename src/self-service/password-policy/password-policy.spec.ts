import { describe, expect, it } from 'vitest';
import type { PasswordPolicyConfig } from '../../config/app-config.js';
import type { BreachedPasswords } from './breached-passwords.js';
import { PasswordPolicy } from './password-policy.js';
import { PASSWORD_POLICY_MESSAGE_ID, PasswordPolicyRule } from './password-policy-violation.js';

const DEFAULTS: PasswordPolicyConfig = {
  minLength: 8,
  maxLength: 1024,
  identifierSimilarityCheck: true,
  haveIBeenPwned: { enabled: false, url: 'https://api.pwnedpasswords.com', maxBreaches: 0, ignoreNetworkErrors: true },
};

function policy(
  overrides: Partial<PasswordPolicyConfig> = {},
  breaches: { enabled: boolean; count?: number } = { enabled: false },
): { policy: PasswordPolicy; asked: string[] } {
  const asked: string[] = [];
  const breached = {
    enabled: breaches.enabled,
    breachCount: async (password: string) => {
      asked.push(password);
      return breaches.count;
    },
  } as unknown as BreachedPasswords;
  const config = { ...DEFAULTS, ...overrides } as PasswordPolicyConfig;
  return { policy: new PasswordPolicy(config, breached), asked };
}

describe('PasswordPolicy (S55)', () => {
  it('S55: refuses a 7-character password with message 4000005', async () => {
    const result = await policy().policy.check('x7#Kq2!', ['alice@example.org']);
    expect(result?.rule).toBe(PasswordPolicyRule.TooShort);
    expect(result?.message.id).toBe(PASSWORD_POLICY_MESSAGE_ID);
    expect(result?.message.type).toBe('error');
    expect(result?.message.text).toContain(result?.message.context.reason);
  });

  it('S55: accepts a 64-character password and a 1024-character one, refuses 1025', async () => {
    const { policy: subject } = policy();
    expect(await subject.check('Vq8!'.repeat(16), ['alice@example.org'])).toBeUndefined();
    expect(await subject.check('Vq8!'.repeat(256), ['alice@example.org'])).toBeUndefined();
    expect((await subject.check(`${'Vq8!'.repeat(256)}x`, ['alice@example.org']))?.rule).toBe(PasswordPolicyRule.TooLong);
  });

  it('S55: accepts a password over 72 bytes (argon2id, unlike bcrypt, does not truncate there)', async () => {
    const password = `${'k'.repeat(40)}${'Ω'.repeat(17)}`;
    expect(Buffer.byteLength(password)).toBe(74);
    expect(await policy().policy.check(password, ['alice@example.org'])).toBeUndefined();
  });

  it('counts Unicode code points for the minimum length', async () => {
    expect(await policy().policy.check('😀🔑🌍🚀🎲🧩🪐🦉', ['alice@example.org'])).toBeUndefined();
    expect((await policy().policy.check('😀🔑🌍🚀🎲🧩🪐', ['alice@example.org']))?.rule).toBe(PasswordPolicyRule.TooShort);
  });

  it('S55: refuses a password close to any of the identifiers', async () => {
    const result = await policy().policy.check('alice@example.org1', ['someone@else.net', 'alice@example.org']);
    expect(result?.rule).toBe(PasswordPolicyRule.SimilarToIdentifier);
  });

  it('skips the similarity rule when turned off', async () => {
    const { policy: subject } = policy({ identifierSimilarityCheck: false });
    expect(await subject.check('alice@example.org1', ['alice@example.org'])).toBeUndefined();
  });

  it('S55: refuses a common password from the offline list, in any case', async () => {
    expect((await policy().policy.check('password1', ['alice@example.org']))?.rule).toBe(PasswordPolicyRule.Common);
    expect((await policy().policy.check('IloveYou1', ['alice@example.org']))?.rule).toBe(PasswordPolicyRule.Common);
  });

  it('does not ask the breach API when it is disabled', async () => {
    const { policy: subject, asked } = policy();
    expect(await subject.check('unusual-Passphrase-42', [])).toBeUndefined();
    expect(asked).toEqual([]);
  });

  it('S55: refuses a password seen in more breaches than allowed', async () => {
    const { policy: subject } = policy({}, { enabled: true, count: 3 });
    expect((await subject.check('unusual-Passphrase-42', []))?.rule).toBe(PasswordPolicyRule.Breached);
  });

  it('accepts a breached password up to the configured maximum, and when the API could not be asked', async () => {
    const base = DEFAULTS.haveIBeenPwned;
    expect(
      await policy({ haveIBeenPwned: { ...base, maxBreaches: 3 } }, { enabled: true, count: 3 }).policy.check('unusual-Passphrase-42', []),
    ).toBeUndefined();
    expect(await policy({}, { enabled: true, count: undefined }).policy.check('unusual-Passphrase-42', [])).toBeUndefined();
  });

  it('checks the cheap rules before asking the breach API', async () => {
    const { policy: subject, asked } = policy({}, { enabled: true, count: 0 });
    await subject.check('short', []);
    await subject.check('password1', []);
    expect(asked).toEqual([]);
  });
});
