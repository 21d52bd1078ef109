import { balancedGroups, splitDelimited } from '../../common/regex/delimited-pattern.js';
import { escapeRegExp, literalPattern, type CompiledPattern } from './compiled-pattern.js';
import { compileLinearRegExp, regExpProblem } from '../../common/regex/linear-regexp.js';
import { PatternSyntaxError } from './pattern-syntax.error.js';
import { stickyMatcher } from './sticky-matcher.js';

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
  const parts = splitDelimited(pattern);
  if (parts === undefined) throw new PatternSyntaxError('unbalanced "<" and ">"');
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
