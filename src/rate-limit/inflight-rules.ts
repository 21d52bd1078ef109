import type { Listener } from '../common/http/listener.js';
import { BucketPattern } from './bucket-pattern.js';
import type { RequestPath } from './request-path.js';

export type InflightAction = 'enforced' | 'report-only';

/** An endpoint where concurrent writes to one resource are refused (enforced) or only logged (report-only). */
export interface InflightRule {
  readonly pattern: BucketPattern;
  readonly methods: ReadonlySet<string>;
  readonly action: InflightAction;
  /** `path`: the key is the full path; `recovery`: the path plus the submitted email or flow id. */
  readonly key: 'path' | 'recovery';
}

const rule = (path: string, methods: readonly string[], action: InflightAction, key: 'path' | 'recovery' = 'path'): InflightRule => ({
  pattern: new BucketPattern(path),
  methods: new Set(methods),
  action,
  key,
});

/** The hosted offer's inflight rules, whatever the plan. GET, OPTIONS and HEAD are exempt from all of them. */
export const INFLIGHT_RULES: readonly InflightRule[] = [
  rule('/admin/identities', ['POST', 'PATCH'], 'enforced'),
  rule('/admin/identities/*', ['PUT', 'PATCH', 'DELETE'], 'enforced'),
  rule('/admin/identities/*/credentials/*', ['DELETE'], 'enforced'),
  rule('/admin/identities/*/sessions', ['DELETE'], 'enforced'),
  rule('/admin/sessions/*', ['DELETE'], 'report-only'),
  rule('/admin/sessions/*/extend', ['PATCH'], 'report-only'),
  rule('/self-service/recovery', ['POST'], 'report-only', 'recovery'),
];

export const INFLIGHT_EXEMPT_METHODS: ReadonlySet<string> = new Set(['GET', 'OPTIONS', 'HEAD']);

const ALL_LISTENERS: readonly Listener[] = ['public', 'admin', 'proxy'];

/**
 * Whether an inflight rule can apply to some request a route serves: the route takes a method no rule
 * exempts, on a listener whose requests the rules see (not the proxy's), at a URL one of the rules can
 * match. A route's URL (Fastify's syntax, as the router sees it: on the admin listener without the
 * `/admin` prefix) is compared up to its first parameter or wildcard; past that point any rule whose
 * own literal start agrees is taken to apply. Errs on the side of true: a route without a listener
 * constraint counts as being on every listener.
 */
export function inflightMayApply(methods: readonly string[], url: string, listeners: readonly Listener[] | undefined): boolean {
  const writing = methods.map((method) => method.toUpperCase()).filter((method) => !INFLIGHT_EXEMPT_METHODS.has(method));
  if (writing.length === 0) return false;
  const open = url.search(/[:*]/);
  const prefix = open === -1 ? url : url.slice(0, open);
  return (listeners ?? ALL_LISTENERS).some((listener) => {
    if (listener === 'proxy') return false;
    // The path the rules name: on the admin listener always under `/admin` (requestPathOf).
    const hosted = listener === 'admin' ? `/admin${open === -1 && prefix === '/' ? '' : prefix}` : prefix;
    return INFLIGHT_RULES.some((rule) => {
      if (rule.pattern.adminOnly && listener !== 'admin') return false;
      const methods = writing.filter((method) => rule.methods.has(method));
      if (methods.length === 0) return false;
      if (open === -1) return methods.some((method) => rule.pattern.matches(method, hosted));
      const star = rule.pattern.path.indexOf('*');
      const literal = star === -1 ? rule.pattern.path : rule.pattern.path.slice(0, star);
      return hosted.startsWith(literal) || literal.startsWith(hosted);
    });
  });
}

/** The rule a request falls under (its method, and its path as `requestPathOf` names it), if any. */
export function inflightRuleFor(method: string, path: RequestPath): InflightRule | undefined {
  const admin = path.listener === 'admin';
  return INFLIGHT_RULES.find(
    (rule) => rule.methods.has(method) && (admin || !rule.pattern.adminOnly) && rule.pattern.matches(method, path.hosted),
  );
}
