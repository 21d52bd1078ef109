/** C0 controls and DEL: the WHATWG URL parser drops CR, LF and tab silently, so they are refused before it. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * The `return_to` allow-list (Kratos `x/http_secure_redirect.go`): a URL is allowed when it is an
 * absolute http(s) URL without credentials or control characters whose scheme, host and port equal
 * those of an allowed URL and whose path is that URL's path or below it (by whole segments: `/app`
 * allows `/app/x`, not `/apple`). Returns the URL as serialised by the URL parser (non-ASCII
 * percent-encoded), which is what may go into a `Location` header, or undefined when it is not allowed.
 * Pure.
 */
export function allowedReturnTo(candidate: string, allowed: readonly string[]): string | undefined {
  if (CONTROL_CHARACTERS.test(candidate)) return undefined;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') return undefined;
  const matches = allowed.some((entry) => {
    const base = new URL(entry);
    if (base.protocol !== url.protocol || base.host !== url.host) return false;
    const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
    return url.pathname === base.pathname || url.pathname.startsWith(prefix);
  });
  return matches ? url.href : undefined;
}
