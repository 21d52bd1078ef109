import type { Listener } from '../common/http/listener.js';

/** The two names of a request's path: the hosted-style one (`/admin/...` for admin routes) and its alias. */
export interface RequestPath {
  readonly listener: Listener;
  /** What the hosted offer's tables name: on the admin listener always under `/admin`. */
  readonly hosted: string;
  /** The same path without the `/admin` prefix (equal to `hosted` on the public listener). */
  readonly alias: string;
}

/**
 * Names the path of a request as it arrived (before the admin listener's `/admin` rewrite), or
 * `undefined` for requests no limit applies to: the proxy listener (it forwards to upstreams, like the
 * decision API it mirrors), health, metrics and the decision API. Percent-escapes are decoded as the
 * router decodes them, so `/sessions/%77hoami` counts where `/sessions/whoami` does.
 */
export function requestPathOf(listener: Listener | undefined, originalUrl: string): RequestPath | undefined {
  if (listener === undefined || listener === 'proxy') return undefined;
  const query = originalUrl.indexOf('?');
  let path = query === -1 ? originalUrl : originalUrl.slice(0, query);
  if (path.includes('%')) path = decoded(path);
  if (listener === 'public') return isExempt(path, false) ? undefined : { listener, hosted: path, alias: path };
  const prefixed = path === '/admin' || path.startsWith('/admin/');
  const alias = prefixed ? path.slice('/admin'.length) || '/' : path;
  if (isExempt(alias, true)) return undefined;
  return { listener, hosted: prefixed ? path : `/admin${path === '/' ? '' : path}`, alias };
}

function isExempt(path: string, admin: boolean): boolean {
  if (path.startsWith('/health/')) return true;
  if (!admin) return false;
  return path === '/metrics/prometheus' || path === '/decisions' || path.startsWith('/decisions/');
}

function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
