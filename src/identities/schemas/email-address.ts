import { normalizeIdentifier } from '../../common/text/identifier-normalization.js';

/**
 * `email` and `idn-email`: ajv-formats' `email` is ASCII-only, which would refuse internationalised
 * addresses (RFC 6531) such as `zoë@example.com` in NFC or NFD. A pragmatic check: a local part of
 * letters, marks, digits and the RFC 5322 atom specials, and a dotted domain of letters, marks, digits
 * and hyphens.
 */
const EMAIL =
  /^[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~-]+)*@(?:[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}-]{0,61}[\p{L}\p{M}\p{N}])?\.)+[\p{L}\p{M}\p{N}]{2,63}$/u;

/**
 * Whether a string passes the `email` format; also the check of addresses typed into recovery and
 * verification forms. An address that identifier normalisation refuses (a look-alike character) is
 * no address of ours.
 */
export function isEmailAddress(value: string): boolean {
  return value.length <= 320 && EMAIL.test(value) && normalizeIdentifier(value) !== undefined;
}
