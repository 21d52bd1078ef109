import { SCOPE_CLAIMS } from '../common/oidc/standard-claims.js';

/** What claims are computed from: an identity's traits, its verifiable addresses and when it last changed. */
export interface ClaimsSource {
  readonly traits: unknown;
  readonly verifiableAddresses: readonly { readonly value: string; readonly verified: boolean }[];
  readonly updatedAt: Date;
}

/** Claims grouped by the scope that releases them: `{ email: { email, email_verified }, profile: { ... } }`. */
export type ClaimsByScope = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/**
 * The standard claims of an identity, by scope, through `mapping` (claim → dotted trait path). A claim
 * whose trait is absent (or empty) is left out rather than sent empty; `email_verified` comes from the
 * verifiable address holding the e-mail; `name` falls back to the given and family names joined.
 */
export function claimsByScope(source: ClaimsSource, mapping: Readonly<Record<string, string>>): ClaimsByScope {
  const found: Record<string, unknown> = {};
  for (const [claim, path] of Object.entries(mapping)) {
    const value = traitAt(source.traits, path);
    if (isReleasable(value)) found[claim] = value;
  }
  if (found['name'] === undefined || typeof found['name'] !== 'string') {
    const parts = [found['given_name'], found['family_name']].filter((part): part is string => typeof part === 'string');
    if (parts.length > 0) found['name'] = parts.join(' ');
    else delete found['name'];
  }
  const email = found['email'];
  if (typeof email === 'string') {
    const lowered = email.toLowerCase();
    found['email_verified'] = source.verifiableAddresses.some((address) => address.value.toLowerCase() === lowered && address.verified);
  }
  found['updated_at'] = Math.floor(source.updatedAt.getTime() / 1000);

  const grouped: Record<string, Record<string, unknown>> = {};
  for (const [scope, claims] of Object.entries(SCOPE_CLAIMS)) {
    const released = Object.fromEntries(claims.filter((claim) => found[claim] !== undefined).map((claim) => [claim, found[claim]]));
    if (Object.keys(released).length > 0) grouped[scope] = released;
  }
  return grouped;
}

/** The claims released by the granted scopes, merged (what goes into `session.id_token`). */
export function claimsForScopes(byScope: unknown, grantedScopes: readonly string[]): Record<string, unknown> {
  if (byScope === null || typeof byScope !== 'object') return {};
  const claims: Record<string, unknown> = {};
  for (const scope of grantedScopes) {
    if (!Object.hasOwn(SCOPE_CLAIMS, scope)) continue;
    const group = (byScope as Record<string, unknown>)[scope];
    if (group === null || typeof group !== 'object' || Array.isArray(group)) continue;
    // Only the claims the scope stands for, whatever an edited context holds.
    for (const claim of SCOPE_CLAIMS[scope]!) {
      const value = (group as Record<string, unknown>)[claim];
      if (value !== undefined) claims[claim] = value;
    }
  }
  return claims;
}

function traitAt(traits: unknown, path: string): unknown {
  let current: unknown = traits;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current) || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function isReleasable(value: unknown): boolean {
  if (typeof value === 'string') return value !== '';
  return typeof value === 'number' || typeof value === 'boolean' || (value !== null && typeof value === 'object');
}
