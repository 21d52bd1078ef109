import { balancedGroups, type DelimitedPart, splitDelimited } from '../../common/regex/delimited-pattern.js';
import { escapeRegExp } from '../../common/regex/escape-regexp.js';
import { compileLinearRegExp, regExpProblem } from '../../common/regex/linear-regexp.js';
import type { MatchingStrategy } from '../access-rule.js';

/** `match.url` compiled for one strategy. */
export interface UrlPattern {
  readonly source: string;
  /** Every matching URL starts with one of these (the index keys). */
  readonly prefixes: readonly string[];
  /** True when the pattern matches exactly one URL, `prefix` itself. */
  readonly literal: boolean;
  /** The capture groups' values when `url` matches (empty strings for groups that took no part). */
  exec(url: string): readonly string[] | undefined;
}

/** A `match.url` that does not compile; the message says why, in the pattern's own terms. */
export class UrlPatternError extends Error {
  override readonly name = 'UrlPatternError';
}

type Part = DelimitedPart;

const NO_CAPTURES: readonly string[] = Object.freeze([]);

/**
 * Oathkeeper's URL patterns: text outside `<` and `>` is literal, the whole URL must match.
 * - `regexp`: each `<...>` is a regular expression wrapped in a capture group, so
 *   `<https|http>://example.com/<.*>` against `http://example.com/a` captures `["http", "a"]` (groups
 *   inside an expression count too, in order). Expressions use JavaScript syntax (Go's
 *   `(?P<name>...)` is accepted) restricted to what runs in linear time: no lookaround, no
 *   backreferences. Each must balance its own parentheses so it cannot close its group early and
 *   escape the anchoring.
 * - `glob`: each `<...>` is a glob without separators (`*` and `**` match any run, `/` included; `?`
 *   one character; `[abc]`, `[!a-c]`, `{a,b}`, `\` escapes); no capture groups.
 * A pattern without `<` is compared by string equality.
 */
export function compileUrlPattern(source: string, strategy: MatchingStrategy): UrlPattern {
  const parts = splitDelimited(source);
  if (parts === undefined) throw new UrlPatternError('unbalanced "<" and ">"');
  if (!parts.some((part) => 'expression' in part)) {
    return { source, prefixes: [source], literal: true, exec: (url) => (url === source ? NO_CAPTURES : undefined) };
  }
  const prefixes = literalPrefixes(parts, strategy);
  let body = '^';
  for (const part of parts) {
    if ('literal' in part) body += escapeRegExp(part.literal);
    else body += strategy === 'regexp' ? regexpGroup(part.expression) : `(?:${globToRegExp(part.expression)})`;
  }
  const regexp = compile(`${body}$`, '');
  if (strategy === 'glob') return { source, prefixes, literal: false, exec: (url) => (regexp.test(url) ? NO_CAPTURES : undefined) };
  return {
    source,
    prefixes,
    literal: false,
    exec(url) {
      const found = regexp.exec(url);
      return found === null ? undefined : found.slice(1).map((value) => value ?? '');
    },
  };
}

/** A `<...>` that is only a choice of plain words: `<https|http>` as a regular expression, `<{https,http}>` as a glob. */
const PLAIN_CHOICE: Readonly<Record<MatchingStrategy, RegExp>> = {
  regexp: /^[A-Za-z0-9:-]+(?:\|[A-Za-z0-9:-]+)*$/,
  glob: /^\{[A-Za-z0-9:-]+(?:,[A-Za-z0-9:-]+)*\}$/,
};

/**
 * The literal text before the first expression; or, when the pattern starts with a choice of plain
 * words (`<https|http>://app.example/<.*>`, a common way to write rules), one prefix per word followed
 * by the literal text after the choice, so such rules are not tried on every request.
 */
function literalPrefixes(parts: readonly Part[], strategy: MatchingStrategy): string[] {
  const [first, second] = parts;
  if (first !== undefined && 'literal' in first) return [first.literal];
  if (first === undefined || !PLAIN_CHOICE[strategy].test(first.expression)) return [''];
  const words = strategy === 'regexp' ? first.expression.split('|') : first.expression.slice(1, -1).split(',');
  const after = second !== undefined && 'literal' in second ? second.literal : '';
  return [...new Set(words.map((word) => `${word}${after}`))];
}

function regexpGroup(raw: string): string {
  const expression = raw.replaceAll('(?P<', '(?<');
  if (!balancedGroups(expression)) throw new UrlPatternError(`<${raw}> has unbalanced parentheses`);
  compile(`^(?:${expression})$`, `<${raw}>: `);
  return `(${expression})`;
}

function compile(source: string, where: string): RegExp {
  try {
    return compileLinearRegExp(source);
  } catch (error) {
    throw new UrlPatternError(`${where}${regExpProblem(error)}`);
  }
}

/** A glob without separators as a regular-expression body; every construct has star height one at most. */
function globToRegExp(glob: string): string {
  let position = 0;
  const sequence = (inBraces: boolean): string => {
    let out = '';
    while (position < glob.length) {
      const char = glob[position]!;
      if (inBraces && (char === ',' || char === '}')) return out;
      if (char === '\\') {
        const next = glob[position + 1];
        if (next === undefined) throw new UrlPatternError(`<${glob}> ends with an unescaped "\\"`);
        out += escapeRegExp(next);
        position += 2;
      } else if (char === '*') {
        while (glob[position] === '*') position += 1;
        out += '[^]*';
      } else if (char === '?') {
        out += '[^]';
        position += 1;
      } else if (char === '[') {
        out += characterClass();
      } else if (char === '{') {
        position += 1;
        const options: string[] = [];
        for (;;) {
          options.push(sequence(true));
          const closing = glob[position];
          position += 1;
          if (closing === '}') break;
        }
        out += `(?:${options.join('|')})`;
      } else {
        out += escapeRegExp(char);
        position += 1;
      }
    }
    if (inBraces) throw new UrlPatternError(`<${glob}> has an unclosed "{"`);
    return out;
  };
  const characterClass = (): string => {
    let index = position + 1;
    const negated = glob[index] === '!';
    if (negated) index += 1;
    let body = '';
    while (index < glob.length && glob[index] !== ']') {
      let char = glob[index]!;
      if (char === '\\') {
        index += 1;
        if (index >= glob.length) break;
        char = glob[index]!;
        body += classCharacter(char);
      } else if (char === '-' && body !== '' && glob[index + 1] !== ']') {
        body += '-';
      } else {
        body += classCharacter(char);
      }
      index += 1;
    }
    if (index >= glob.length) throw new UrlPatternError(`<${glob}> has an unclosed "["`);
    if (body === '') throw new UrlPatternError(`<${glob}> has an empty "[]"`);
    position = index + 1;
    return `[${negated ? '^' : ''}${body}]`;
  };
  return sequence(false);
}

function classCharacter(char: string): string {
  return /[\\\]^[-]/.test(char) ? `\\${char}` : char;
}
