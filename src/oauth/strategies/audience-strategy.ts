/**
 * fosite's DefaultAudienceMatchingStrategy (Hydra v1.5): a requested audience is allowed when one of the
 * client's audiences has the same scheme and host and a path equal to it or a parent of it
 * (`https://api.example/v1` allows `https://api.example/v1/users`, not `https://api.example/v10`).
 * Values that are not URLs must be equal.
 */
export function audienceAllowed(allowed: readonly string[], requested: string): boolean {
  const wanted = parse(requested);
  return allowed.some((entry) => {
    if (entry === requested) return true;
    const candidate = parse(entry);
    if (wanted === undefined || candidate === undefined) return false;
    if (wanted.protocol !== candidate.protocol || wanted.host !== candidate.host) return false;
    const base = candidate.pathname.replace(/\/+$/, '');
    return wanted.pathname === candidate.pathname || wanted.pathname === base || wanted.pathname.startsWith(`${base}/`);
  });
}

/** The requested audiences the client may not request (empty: all allowed). */
export function audiencesNotAllowed(allowed: readonly string[], requested: readonly string[]): string[] {
  return requested.filter((audience) => !audienceAllowed(allowed, audience));
}

function parse(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
