/**
 * The access rule of Oathkeeper v0.37, as it travels on the wire (`GET /rules`, rule files, `PUT
 * /rules/{id}`). The pipeline handlers named here are known to the decisions context, not to this one.
 */
export interface AccessRule {
  /** Unique; at most 190 characters. */
  readonly id: string;
  /** The Oathkeeper release the rule was written for; informational. */
  readonly version?: string;
  readonly description: string;
  readonly match: RuleMatchSpec;
  /** Tried in order; the first responsible one decides. At least one. */
  readonly authenticators: readonly RuleHandler[];
  readonly authorizer: RuleHandler;
  /** Applied in order; all must succeed. At least one. */
  readonly mutators: readonly RuleHandler[];
  /** Error handlers; empty means the global fallback. */
  readonly errors: readonly RuleHandler[];
  readonly upstream: RuleUpstream;
}

export interface RuleMatchSpec {
  /** HTTP methods, compared case-insensitively. */
  readonly methods: readonly string[];
  /** `scheme://host/path` pattern; expressions between `<` and `>` (regexp or glob, per strategy). */
  readonly url: string;
}

export interface RuleHandler {
  readonly handler: string;
  /** Deep-merged over the handler's global configuration by the pipeline. */
  readonly config?: Readonly<Record<string, unknown>>;
}

export interface RuleUpstream {
  /** Where the proxy forwards; empty when the rule only serves the decision API. */
  readonly url: string;
  /** A path prefix removed before forwarding. */
  readonly strip_path?: string;
  /** Keep the client's Host header instead of the upstream's. */
  readonly preserve_host: boolean;
}

/** The one rule a request matched, and the values of its pattern's capture groups (for templates). */
export interface RuleMatch {
  readonly rule: AccessRule;
  readonly captures: readonly string[];
}

/**
 * A problem found in a rule; `path` is the dotted field path (`authenticators.0.config.jwks_urls`).
 * A `deferred` problem (a handler switched off by configuration) does not keep a rule read from a
 * file or the database out of force: the rule is reported at load and answers 500 until the
 * configuration or the rule changes. A rule written through the API is refused for it all the same.
 */
export interface RuleProblem {
  readonly path: string;
  readonly message: string;
  readonly deferred?: true;
}

/** Checks what this context cannot know (handler names, handler configurations). */
export type RuleValidator = (rule: AccessRule) => readonly RuleProblem[];

/** Told after the rules in force changed (any source), with the ids added, replaced or removed. */
export type RulesChangeListener = (changedIds: readonly string[]) => void;

/** How `match.url` is read: `<...>` holds a regular expression, or a glob. */
export type MatchingStrategy = 'regexp' | 'glob';
