import { IdentitiesError } from './identities.errors.js';
import { normalizeIdentifier } from '../common/text/identifier-normalization.js';

/** Equality on a login identifier, optionally only the one derived from one trait path. */
export interface IdentifierCondition {
  readonly identifier: string;
  readonly traitPath: string | undefined;
}

/**
 * The list filters of GET /identities: `credentials_identifier=<value>` (any login identifier) and
 * `traits.<path>=<value>` for a trait marked as a password identifier in some schema (the dotted
 * path, e.g. `traits.email`). Values are normalised like identifiers (NFC, lower case), so both are
 * exact matches on the normalised identifier. Several filters must all hold. Pagination parameters
 * are left to the page parser and `include_credential` to `parseIncludeCredential`; any other
 * parameter is a 400.
 */
export function parseIdentityListFilter(
  query: Readonly<Record<string, unknown>>,
  identifierTraitPaths: ReadonlySet<string>,
): IdentifierCondition[] {
  const conditions: IdentifierCondition[] = [];
  for (const [name, raw] of Object.entries(query)) {
    if (name === 'page' || name === 'per_page' || name === INCLUDE_CREDENTIAL) continue;
    const traitPath = name.startsWith('traits.') ? name.slice('traits.'.length) : undefined;
    if (name !== 'credentials_identifier' && (traitPath === undefined || !identifierTraitPaths.has(traitPath))) {
      throw IdentitiesError.invalidRequest(name, 'is not a list filter: use credentials_identifier or traits.<identifier trait>');
    }
    if (typeof raw !== 'string' || raw === '') throw IdentitiesError.invalidRequest(name, 'must be given once, with a value');
    // A refused value is compared as typed: no stored identifier has that form, so it matches nobody.
    conditions.push({ identifier: normalizeIdentifier(raw) ?? raw, traitPath });
  }
  return conditions;
}

/** The query parameter that asks the admin API for credentials (Kratos' later `include_credential`). */
export const INCLUDE_CREDENTIAL = 'include_credential';

/**
 * Whether `include_credential` asks for the password credential. `password` is the only credential
 * type there is; any other value (or a repeated parameter) is a 400 rather than a silent omission.
 */
export function parseIncludeCredential(query: Readonly<Record<string, unknown>>): boolean {
  const raw = query[INCLUDE_CREDENTIAL];
  if (raw === undefined) return false;
  if (raw !== 'password') throw IdentitiesError.invalidRequest(INCLUDE_CREDENTIAL, 'must be password');
  return true;
}
