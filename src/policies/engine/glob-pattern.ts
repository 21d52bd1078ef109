import { escapeRegExp, literalPattern, type CompiledPattern } from './compiled-pattern.js';
import { compileLinearRegExp, regExpProblem } from '../../common/regex/linear-regexp.js';
import { PatternSyntaxError } from './pattern-syntax.error.js';
import { stickyMatcher } from './sticky-matcher.js';

const SEPARATOR = ':';
const META = new Set(['*', '?', '[', '{', '\\']);

/**
 * The `glob` flavor (Keto v0.5: gobwas/glob with `:` as the only separator), case-sensitive, whole
 * value:
 * - `*` any run of characters other than `:`; `?` one character other than `:`;
 * - `**` any run of characters, `:` included; as a whole segment (`a:**:b`) it also matches no segment
 *   at all, so `foo:**:bar` matches `foo:bar` as well as `foo:baz:bar` (the documented behaviour);
 * - `[abc]`, `[a-c]`, `[!abc]`, `[!a-c]` one character in (not in) the set;
 * - `{a,b,c}` one of the alternatives, each a glob itself; `\` makes the next character literal.
 * A pattern with none of these is compared by string equality.
 */
export function compileGlobPattern(pattern: string): CompiledPattern {
  const literal = literalPrefix(pattern);
  if (literal.end === pattern.length) return literalPattern(pattern, literal.text);
  const body = new GlobConverter(pattern, literal.end).sequence(false);
  const test = stickyMatcher(literal.text, `${body}$`, (source) => {
    try {
      return compileLinearRegExp(source, 'y');
    } catch (error) {
      throw new PatternSyntaxError(regExpProblem(error));
    }
  });
  return { source: pattern, prefix: literal.text, literal: false, test };
}

/** The unescaped text before the first wildcard, and where in the pattern that wildcard is. */
function literalPrefix(pattern: string): { text: string; end: number } {
  let text = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i]!;
    if (char === '\\' && i + 1 < pattern.length) {
      text += pattern[i + 1];
      i += 1;
    } else if (META.has(char)) {
      return { text, end: i };
    } else {
      text += char;
    }
  }
  return { text, end: pattern.length };
}

/** Glob syntax to a JavaScript regular expression body (every construct has star height at most one). */
class GlobConverter {
  constructor(
    private readonly pattern: string,
    private position: number,
  ) {}

  /** Up to the end, or inside `{...}` up to the next top-level `,` or `}`. */
  sequence(inBraces: boolean): string {
    const pattern = this.pattern;
    let out = '';
    while (this.position < pattern.length) {
      const char = pattern[this.position]!;
      if (inBraces && (char === ',' || char === '}')) return out;
      if (char === '\\') {
        const next = pattern[this.position + 1];
        if (next === undefined) throw new PatternSyntaxError('ends with an unescaped "\\"');
        out += escapeRegExp(next);
        this.position += 2;
      } else if (char === '*') {
        out += this.stars();
      } else if (char === '?') {
        out += `[^${SEPARATOR}]`;
        this.position += 1;
      } else if (char === '[') {
        out += this.characterClass();
      } else if (char === '{') {
        out += this.alternatives();
      } else {
        out += escapeRegExp(char);
        this.position += 1;
      }
    }
    if (inBraces) throw new PatternSyntaxError('has an unclosed "{"');
    return out;
  }

  private stars(): string {
    const pattern = this.pattern;
    const start = this.position;
    while (pattern[this.position] === '*') this.position += 1;
    if (this.position - start === 1) return `[^${SEPARATOR}]*`;
    if (pattern[start - 1] === SEPARATOR && pattern[this.position] === SEPARATOR) {
      this.position += 1;
      return `(?:[^]*${SEPARATOR})?`;
    }
    return '[^]*';
  }

  private characterClass(): string {
    const pattern = this.pattern;
    let index = this.position + 1;
    const negated = pattern[index] === '!';
    if (negated) index += 1;
    let body = '';
    while (index < pattern.length && pattern[index] !== ']') {
      const char = pattern[index]!;
      if (char === '\\') {
        index += 1;
        if (index >= pattern.length) break;
        body += classCharacter(pattern[index]!);
      } else if (char === '-' && body !== '' && pattern[index + 1] !== ']') {
        body += '-';
      } else {
        body += classCharacter(char);
      }
      index += 1;
    }
    if (index >= pattern.length) throw new PatternSyntaxError('has an unclosed "["');
    if (body === '') throw new PatternSyntaxError('has an empty "[]"');
    this.position = index + 1;
    return `[${negated ? '^' : ''}${body}]`;
  }

  private alternatives(): string {
    this.position += 1;
    const options: string[] = [];
    for (;;) {
      options.push(this.sequence(true));
      const char = this.pattern[this.position];
      this.position += 1;
      if (char === '}') break;
    }
    return `(?:${options.join('|')})`;
  }
}

/** A character taken literally inside a regular-expression character class. */
function classCharacter(char: string): string {
  return /[\\\]^[-]/.test(char) ? `\\${char}` : char;
}
