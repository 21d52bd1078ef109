/**
 * Kratos' identifier-similarity rule (selfservice/strategy/password/validator.go, v0.6): both strings
 * lower-cased, the password is too similar when its Levenshtein distance to the identifier is below 5
 * or when their longest common substring covers more than half of the password. `bob24` is refused
 * for `bob@example.com`. Lengths are in Unicode code points, not UTF-16 units.
 */
export const MIN_IDENTIFIER_DISTANCE = 5;
export const MAX_COMMON_SUBSTRING_RATIO = 0.5;

export function isTooSimilar(password: string, identifier: string): boolean {
  const a = [...identifier.toLowerCase()];
  const b = [...password.toLowerCase()];
  if (b.length === 0) return false;
  return levenshtein(a, b) < MIN_IDENTIFIER_DISTANCE || longestCommonSubstring(a, b) / b.length > MAX_COMMON_SUBSTRING_RATIO;
}

/** Edit distance (insert, delete, substitute all cost 1), two rows of the classic table. */
export function levenshtein(a: readonly string[], b: readonly string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Length of the longest run of characters found in both, one row of the table at a time. */
export function longestCommonSubstring(a: readonly string[], b: readonly string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  let longest = 0;
  for (let i = 1; i <= a.length; i++) {
    const current = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      if (a[i - 1] !== b[j - 1]) continue;
      current[j] = previous[j - 1]! + 1;
      if (current[j]! > longest) longest = current[j]!;
    }
    previous = current;
  }
  return longest;
}
