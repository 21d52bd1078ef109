import { parse as parseYaml } from 'yaml';
import type { AccessRule, MatchingStrategy, RuleProblem, RuleValidator } from './access-rule.js';
import { readRule } from './rule-shape.js';

export type RulesDocumentFormat = 'json' | 'yaml';

export interface RulesDocumentReading {
  /** The rules, with defaults filled in; empty when there is any problem (a document loads whole or not at all). */
  readonly rules: readonly AccessRule[];
  /** Every problem found; each path starts with the rule's index in the array (`2.match.url`). */
  readonly problems: readonly RuleProblem[];
  /** Deferred problems of rules that load all the same (they answer 500 until fixed), paths as above. */
  readonly deferred: readonly RuleProblem[];
}

export interface RulesDocumentOptions {
  readonly strategy?: MatchingStrategy;
  readonly validators?: readonly RuleValidator[];
}

/** A YAML alias bomb expands past this many nodes before it is refused. */
const MAX_YAML_ALIASES = 100;

/**
 * Reads a rules document (Oathkeeper's format: a JSON or YAML array of rules) and checks every rule
 * as the server would load it: shape, unknown members, ids (at most 190 characters, unique in the
 * document), methods and URL patterns under the matching strategy (default `regexp`), and the given
 * validators. Pure: no file system, no server; a command-line tool can call it as is.
 */
export function validateRulesDocument(text: string, format: RulesDocumentFormat, options: RulesDocumentOptions = {}): RulesDocumentReading {
  let parsed: unknown;
  try {
    parsed = format === 'json' ? JSON.parse(text) : parseYaml(text, { maxAliasCount: MAX_YAML_ALIASES, uniqueKeys: true });
  } catch (error) {
    return { rules: [], problems: [{ path: '', message: `not valid ${format.toUpperCase()}: ${firstLine(error)}` }], deferred: [] };
  }
  // An empty YAML file holds no rules (Oathkeeper reads it as an empty list).
  if (parsed === null || parsed === undefined) return { rules: [], problems: [], deferred: [] };
  if (!Array.isArray(parsed)) return { rules: [], problems: [{ path: '', message: 'must be an array of rules' }], deferred: [] };
  const rules: AccessRule[] = [];
  const problems: RuleProblem[] = [];
  const deferred: RuleProblem[] = [];
  const seen = new Set<string>();
  parsed.forEach((input: unknown, index) => {
    const reading = readRule(input, options.strategy ?? 'regexp', options.validators ?? []);
    if (reading.problems !== undefined) {
      for (const problem of reading.problems) problems.push({ path: joinPath(String(index), problem.path), message: problem.message });
      return;
    }
    if (seen.has(reading.rule.id)) problems.push({ path: `${index}.id`, message: 'is used by an earlier rule of this document' });
    seen.add(reading.rule.id);
    rules.push(reading.rule);
    for (const problem of reading.deferred) deferred.push({ ...problem, path: joinPath(String(index), problem.path) });
  });
  return problems.length > 0 ? { rules: [], problems, deferred: [] } : { rules, problems, deferred };
}

/** The format a rules file is read in, by its extension; undefined for files that are not rules. */
export function rulesFormatOf(path: string): RulesDocumentFormat | undefined {
  const lower = path.toLowerCase();
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml';
  return undefined;
}

function joinPath(head: string, tail: string): string {
  return tail === '' ? head : `${head}.${tail}`;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0]!;
}
