/**
 * Whether a client would rather have an HTML page than JSON (a browser navigating, not an API client):
 * `text/html` is listed (q > 0) with at least the weight of `application/json`. Wildcards count for
 * neither, so `*\/*` (curl, fetch) gets JSON.
 */
export function acceptsHtml(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  let html = 0;
  let json = 0;
  for (const range of accept.split(',')) {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const qParameter = parameters.find((parameter) => parameter.startsWith('q='));
    const q = qParameter === undefined ? 1 : Number(qParameter.slice(2));
    const weight = Number.isFinite(q) ? q : 0;
    if (type === 'text/html') html = Math.max(html, weight);
    else if (type === 'application/json') json = Math.max(json, weight);
  }
  return html > 0 && html >= json;
}
