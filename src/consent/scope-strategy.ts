import { wildcardMatches } from '../common/oidc/scope-wildcard.js';
import type { OAuth2Config } from '../config/app-config.js';

/** What decides whether a granted scope list allows a scope: the strategy and the privileged scopes. */
export type ScopeRules = Pick<OAuth2Config, 'scopeStrategy' | 'privilegedScopes'>;

/**
 * Whether a granted scope list allows one scope, under `OAUTH2_SCOPE_STRATEGY`:
 * - `exact`: the scope is in the list;
 * - `wildcard` (fosite's WildcardScopeStrategy, Hydra's default): a granted `a.*` allows `a.b` and
 *   `a.b.c`, a `*` segment in the middle matches any one non-empty segment, otherwise segments must
 *   be equal and the lengths must agree.
 * A privileged scope (the admin scope) is allowed only when the list holds it literally, whatever the
 * strategy: an operator granting an app `*` means "any scope of the apps", not "administer the service".
 */
export function scopeAllowed(rules: ScopeRules, granted: readonly string[], scope: string): boolean {
  if (rules.scopeStrategy === 'exact' || rules.privilegedScopes.includes(scope)) return granted.includes(scope);
  const needle = scope.split('.');
  return granted.some((matcher) => wildcardMatches(matcher.split('.'), needle));
}

/** Whether every requested scope is allowed by the granted ones. */
export function scopesCovered(rules: ScopeRules, granted: readonly string[], requested: readonly string[]): boolean {
  return requested.every((scope) => scopeAllowed(rules, granted, scope));
}
