import { Injectable } from '@nestjs/common';
import type { PasswordPolicyConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { BreachedPasswords } from './breached-passwords.js';
import { isCommonPassword } from './common-passwords.js';
import { isTooSimilar } from './identifier-similarity.js';
import { PasswordPolicyRule, violation, type PasswordPolicyViolation } from './password-policy-violation.js';

/**
 * The rules a new password must pass (registration, settings, after recovery), in Kratos' order and
 * wording, cheapest first: length (in code points; no composition rules, NIST 800-63B), not too similar
 * to any login identifier, not in the offline list of common passwords, and, when enabled, not seen in
 * more breaches than allowed by the Have I Been Pwned range API. The maximum exists to bound hashing
 * work: we hash with argon2id, which has no 72-byte limit, so it can be generous (default 1024).
 */
@Injectable()
export class PasswordPolicy {
  constructor(
    @InjectConfig('passwordPolicy') private readonly config: PasswordPolicyConfig,
    private readonly breached: BreachedPasswords,
  ) {}

  /** The first rule the password breaks, or undefined when it may be used. */
  async check(password: string, identifiers: readonly string[]): Promise<PasswordPolicyViolation | undefined> {
    const length = [...password].length;
    if (length < this.config.minLength) {
      return violation(
        PasswordPolicyRule.TooShort,
        `password length must be at least ${this.config.minLength} characters but only got ${length}`,
      );
    }
    if (length > this.config.maxLength) {
      return violation(PasswordPolicyRule.TooLong, `password length must be at most ${this.config.maxLength} characters but got ${length}`);
    }
    if (this.config.identifierSimilarityCheck && identifiers.some((identifier) => isTooSimilar(password, identifier))) {
      return violation(PasswordPolicyRule.SimilarToIdentifier, 'the password is too similar to the user identifier');
    }
    if (isCommonPassword(password)) {
      return violation(PasswordPolicyRule.Common, 'the password is among the most commonly used passwords and must not be used');
    }
    if (this.breached.enabled) {
      const count = await this.breached.breachCount(password);
      if (count !== undefined && count > this.config.haveIBeenPwned.maxBreaches) {
        return violation(PasswordPolicyRule.Breached, `the password has been found in ${count} data breaches and must no longer be used`);
      }
    }
    return undefined;
  }
}
