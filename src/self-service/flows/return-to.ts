/**
 * The `return_to` allow-list (Kratos `x/http_secure_redirect.go`): a URL is allowed when it is an
 * absolute http(s) URL without credentials whose scheme, host and port equal those of an allowed URL
 * and whose path is that URL's path or below it (by whole segments: `/app` allows `/app/x`, not
 * `/apple`). Pure.
 */
export function isAllowedReturnTo(candidate: string, allowed: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') return false;
  return allowed.some((entry) => {
    const base = new URL(entry);
    if (base.protocol !== url.protocol || base.host !== url.host) return false;
    const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
    return url.pathname === base.pathname || url.pathname.startsWith(prefix);
  });
}
