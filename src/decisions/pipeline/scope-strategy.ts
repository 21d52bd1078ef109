import { wildcardMatches } from '../../common/oidc/scope-wildcard.js';
/** Oathkeeper's scope strategies (fosite's): how a required scope is matched against granted ones. */
export type ScopeStrategy = 'hierarchic' | 'exact' | 'wildcard' | 'none';

/**
 * - `hierarchic`: a granted `foo` also grants `foo.bar`;
 * - `wildcard`: a granted `foo.*` grants `foo.bar`, and `*` stands for one segment;
 * - `exact` and `none` (no strategy: the grant must name the scope itself): equality.
 */
export function scopeGranted(strategy: ScopeStrategy, granted: readonly string[], required: string): boolean {
  switch (strategy) {
    case 'exact':
    case 'none':
      return granted.includes(required);
    case 'hierarchic':
      return granted.some((scope) => scope === required || required.startsWith(`${scope}.`));
    case 'wildcard':
      return granted.some((scope) => wildcardMatches(scope.split('.'), required.split('.')));
  }
}

export function allScopesGranted(strategy: ScopeStrategy, granted: readonly string[], required: readonly string[]): boolean {
  return required.every((scope) => scopeGranted(strategy, granted, scope));
}
