/** A piece of a `<...>`-delimited pattern: literal text, or the expression between a top-level pair. */
export type DelimitedPart = { readonly literal: string } | { readonly expression: string };

/**
 * ladon's delimiter scan, used by the regex policies and the access rules' URL patterns alike: top-level
 * `<...>` pairs, nested pairs kept inside their expression. Returns undefined when `<` and `>` do not
 * balance, so each caller reports it in its own error.
 */
export function splitDelimited(pattern: string): DelimitedPart[] | undefined {
  const parts: DelimitedPart[] = [];
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
      if (level < 0) return undefined;
      if (level === 0) {
        parts.push({ expression: pattern.slice(start, i) });
        start = i + 1;
      }
    }
  }
  if (level !== 0) return undefined;
  if (start < pattern.length) parts.push({ literal: pattern.slice(start) });
  return parts;
}

/**
 * Parentheses outside character classes and escapes never close more than they opened: an expression
 * wrapped in a group of its own cannot close that group and change what the rest of the pattern means.
 */
export function balancedGroups(expression: string): boolean {
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
