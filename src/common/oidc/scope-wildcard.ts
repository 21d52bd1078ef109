/**
 * fosite's wildcard scope matching, shared by the token side (consent's scope strategy) and the
 * gateway's (the decision pipeline's): `matcher` and `needle` are a granted and a required scope split
 * at dots; `*` stands for exactly one non-empty segment, and a shorter matcher covers a longer needle
 * only when its last segment is `*`.
 */
export function wildcardMatches(matcher: readonly string[], needle: readonly string[]): boolean {
  if (matcher.length > needle.length) return false;
  return matcher.every((part, index) => {
    const other = needle[index]!;
    const last = index === matcher.length - 1;
    if (last && matcher.length !== needle.length) return part === '*' && other !== '';
    return part === '*' ? other !== '' : part === other;
  });
}
