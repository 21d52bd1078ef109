/** A subject, resource or action pattern compiled for one flavor. */
export interface CompiledPattern {
  /** The pattern as written. */
  readonly source: string;
  /** Text that every value the pattern matches starts with (the index key). */
  readonly prefix: string;
  /** True when the pattern matches exactly one value, `prefix` itself. */
  readonly literal: boolean;
  test(value: string): boolean;
}

export function literalPattern(source: string, value: string = source): CompiledPattern {
  return { source, prefix: value, literal: true, test: (candidate) => candidate === value };
}

export { escapeRegExp } from '../../common/regex/escape-regexp.js';
