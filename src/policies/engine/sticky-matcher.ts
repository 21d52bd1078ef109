/** Past this many distinct remainders the memo starts over (a bound, not a tuning knob). */
const MAX_SHARED = 50_000;
const shared = new Map<string, RegExp>();

/**
 * A pattern is `literal prefix + remainder`. The index only offers a value to a pattern whose prefix
 * the value starts with, and many patterns share a remainder (`tenants:t1:docs:<[a-z0-9-]+>`,
 * `tenants:t2:docs:<[a-z0-9-]+>`, ...). So the remainder is compiled once, sticky (`y`), and run from
 * the end of the prefix: one hot RegExp instead of ten thousand cold ones, and the same answer as
 * the whole anchored expression (the prefix is plain text; `^`, `\b` still see the whole value).
 */
export function stickyMatcher(prefix: string, remainderSource: string, compile: (source: string) => RegExp): (value: string) => boolean {
  let regexp = shared.get(remainderSource);
  if (regexp === undefined) {
    regexp = compile(remainderSource);
    if (shared.size >= MAX_SHARED) shared.clear();
    shared.set(remainderSource, regexp);
  }
  const remainder = regexp;
  const start = prefix.length;
  return (value) => {
    if (!value.startsWith(prefix)) return false;
    remainder.lastIndex = start;
    return remainder.test(value);
  };
}
