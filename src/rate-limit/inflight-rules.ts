import { BucketPattern } from './bucket-pattern.js';

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
