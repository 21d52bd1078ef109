import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The offline list of common passwords: the `passwords-common` dictionary of @zxcvbn-ts/language-common
 * (MIT; about 49,000 of the most frequent passwords in public breach corpora, lower-cased), loaded once
 * into a Set when this module is first imported. Matching is case-insensitive, so `Password1` counts.
 */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set(dictionary['passwords-common']);

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}
