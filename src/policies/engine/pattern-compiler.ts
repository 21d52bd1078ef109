import { literalPattern, type CompiledPattern } from './compiled-pattern.js';
import { compileGlobPattern } from './glob-pattern.js';
import type { Flavor } from './policy-definition.js';
import { compileRegexPattern } from './regex-pattern.js';

/** Past this many distinct patterns the memo starts over (a bound, not a tuning knob). */
const MAX_MEMO_ENTRIES = 100_000;

/**
 * Compiles patterns of one flavor, sharing the compiled form between the policies that use the same
 * pattern (`<read|write>` on ten thousand policies is one RegExp). Throws PatternSyntaxError.
 */
export class PatternCompiler {
  private readonly memo = new Map<string, CompiledPattern>();

  constructor(readonly flavor: Flavor) {}

  compile(pattern: string): CompiledPattern {
    const known = this.memo.get(pattern);
    if (known !== undefined) return known;
    const compiled = compilePattern(this.flavor, pattern);
    if (this.memo.size >= MAX_MEMO_ENTRIES) this.memo.clear();
    this.memo.set(pattern, compiled);
    return compiled;
  }
}

export function compilePattern(flavor: Flavor, pattern: string): CompiledPattern {
  switch (flavor) {
    case 'regex':
      return compileRegexPattern(pattern);
    case 'glob':
      return compileGlobPattern(pattern);
    case 'exact':
      return literalPattern(pattern);
  }
}
