import { PrefixIndex } from '../../common/collections/prefix-index.js';
import type { AccessRule, MatchingStrategy, RuleMatch } from '../access-rule.js';
import { RulesError } from '../rules.errors.js';
import { compileUrlPattern, type UrlPattern } from './url-pattern.js';

interface CompiledRule {
  readonly rule: AccessRule;
  readonly methods: ReadonlySet<string>;
  readonly pattern: UrlPattern;
}

/**
 * The rules in force, compiled for one matching strategy. Pure: no storage, no HTTP.
 *
 * A request is not tried against every rule. Each rule is filed under the literal text before the
 * first `<` of its `match.url` (the whole URL when it has none: a hash lookup; one key per word when
 * it starts with a plain choice such as `<https|http>`), and only rules whose key is a prefix of the
 * request URL are tried: a walk along the URL, whatever the number of rules. A rule whose pattern
 * starts with any other expression is tried on every request.
 */
export class RuleIndex {
  private readonly rules = new Map<string, CompiledRule>();
  private readonly index = new PrefixIndex<CompiledRule>();

  constructor(readonly strategy: MatchingStrategy) {}

  get size(): number {
    return this.rules.size;
  }

  has(id: string): boolean {
    return this.rules.has(id);
  }

  get(id: string): AccessRule | undefined {
    return this.rules.get(id)?.rule;
  }

  /** Every rule, by id. */
  all(): AccessRule[] {
    return [...this.rules.values()].map((compiled) => compiled.rule).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Adds or replaces a rule. Throws UrlPatternError (and then leaves the index unchanged). */
  put(rule: AccessRule): void {
    const compiled: CompiledRule = {
      rule,
      methods: new Set(rule.match.methods.map((method) => method.toUpperCase())),
      pattern: compileUrlPattern(rule.match.url, this.strategy),
    };
    this.remove(rule.id);
    this.rules.set(rule.id, compiled);
    for (const prefix of compiled.pattern.prefixes) {
      if (compiled.pattern.literal) this.index.addExact(prefix, compiled);
      else this.index.addPrefixed(prefix, compiled);
    }
  }

  remove(id: string): void {
    const compiled = this.rules.get(id);
    if (compiled === undefined) return;
    this.rules.delete(id);
    for (const prefix of compiled.pattern.prefixes) {
      if (compiled.pattern.literal) this.index.removeExact(prefix, compiled);
      else this.index.removePrefixed(prefix, compiled);
    }
  }

  /**
   * The one rule matching `method` (case-insensitively) and the URL's `scheme://host/path` (the query
   * and fragment never take part). Throws RulesError `no_match` or `ambiguous`: several matching rules
   * never decide, whichever of them would allow.
   */
  match(method: string, url: URL): RuleMatch {
    const target = `${url.protocol}//${url.host}${url.pathname}`;
    const wanted = method.toUpperCase();
    const found: Array<{ compiled: CompiledRule; captures: readonly string[] }> = [];
    this.index.forEachCandidate(target, (compiled) => {
      // A rule filed under several prefixes may be offered more than once.
      if (!compiled.methods.has(wanted) || found.some((each) => each.compiled === compiled)) return true;
      const captures = compiled.pattern.exec(target);
      if (captures !== undefined) found.push({ compiled, captures });
      return true;
    });
    if (found.length === 0) throw RulesError.noMatch();
    if (found.length > 1) throw RulesError.ambiguous(found.map((each) => each.compiled.rule.id).sort());
    const [only] = found;
    return { rule: only!.compiled.rule, captures: only!.captures };
  }
}
