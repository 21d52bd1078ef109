import { escapeRegExp, literalPattern, type CompiledPattern } from './compiled-pattern.js';
import { compileLinearRegExp, regExpProblem } from '../../common/regex/linear-regexp.js';
import { PatternSyntaxError } from './pattern-syntax.error.js';
import { stickyMatcher } from './sticky-matcher.js';

type TemplatePart = { readonly literal: string } | { readonly expression: string };

/**
 * The `regex` flavor (Keto v0.5 / ladon): regular expressions live between `<` and `>`, everything
 * else is literal text, and the whole value must match (anchored at both ends, case-sensitive).
 * `users:<peter|ken>` matches `users:peter` and `users:ken` only; `users:.*` is plain text. A pattern
 * without `<` is compared by string equality.
 *
 * Expressions use JavaScript syntax (RE2's `(?P<name>...)` is accepted too) restricted to what runs in
 * linear time (see linear-regexp.ts). Each `<...>` is wrapped in its own group, so an alternation stays
 * inside its delimiters, and must have balanced parentheses of its own, so it cannot close that group
 * early and undo the anchoring. The literal prefix is compared as text and the rest runs as a shared
 * sticky expression (see sticky-matcher.ts).
 */
export function compileRegexPattern(pattern: string): CompiledPattern {
  const parts = splitTemplate(pattern);
  if (!parts.some((part) => 'expression' in part)) return literalPattern(pattern);
  const first = parts[0];
  const prefix = first !== undefined && 'literal' in first ? first.literal : '';
  let remainder = '';
  for (const part of prefix === '' ? parts : parts.slice(1)) {
    if ('literal' in part) {
      remainder += escapeRegExp(part.literal);
      continue;
    }
    const expression = part.expression.replaceAll('(?P<', '(?<');
    if (!balancedGroups(expression)) throw new PatternSyntaxError(`<${part.expression}> has unbalanced parentheses`);
    tryCompile(`^(?:${expression})$`, `<${part.expression}>: `);
    remainder += `(?:${expression})`;
  }
  const test = stickyMatcher(prefix, `${remainder}$`, (source) => tryCompile(source, '', 'y'));
  return { source: pattern, prefix, literal: false, test };
}

function tryCompile(source: string, where: string, flags = ''): RegExp {
  try {
    return compileLinearRegExp(source, flags);
  } catch (error) {
    throw new PatternSyntaxError(`${where}${regExpProblem(error)}`);
  }
}

/** ladon's delimiter scan: top-level `<...>` pairs, nested pairs kept inside; unbalanced is an error. */
function splitTemplate(pattern: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let level = 0;
  let start = 0;
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i];
    if (char === '<') {
      level += 1;
      if (level === 1) {
        if (i > start) parts.push({ literal: pattern.slice(start, i) });
        start = i + 1;
      }
    } else if (char === '>') {
      level -= 1;
      if (level === 0) {
        parts.push({ expression: pattern.slice(start, i) });
        start = i + 1;
      } else if (level < 0) {
        throw new PatternSyntaxError('unbalanced "<" and ">"');
      }
    }
  }
  if (level !== 0) throw new PatternSyntaxError('unbalanced "<" and ">"');
  if (start < pattern.length) parts.push({ literal: pattern.slice(start) });
  return parts;
}

/** Parentheses outside character classes and escapes never close more than they opened. */
function balancedGroups(expression: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < expression.length; i += 1) {
    const char = expression[i];
    if (char === '\\') {
      i += 1;
    } else if (inClass) {
      if (char === ']') inClass = false;
    } else if (char === '[') {
      inClass = true;
    } else if (char === '(') {
      depth += 1;
    } else if (char === ')') {
      depth -= 1;
      if (depth < 0) return false;
    }
  }
  return depth === 0;
}
