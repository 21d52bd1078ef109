import type { FastifyRequest } from 'fastify';
import { requestCookies } from '../common/http/cookies.js';
import { DecisionsError, DecisionsErrorCode } from './decisions.errors.js';
import type { JudgedRequest } from './pipeline/authentication-session.js';
import type { PeerList } from './peer-list.js';

/**
 * A request path made canonical before any rule sees it, so that `/public/../admin`,
 * `/public/%2e%2e/admin` and `//admin` are judged as `/admin`, the path every server behind the
 * gate resolves them to: empty segments dropped, percent-encoded dots decoded, `.` and `..` resolved
 * (never above the root). Other percent-encodings stay as they are.
 */
export function normalisePath(path: string): string {
  // Nearly every judged path is canonical already; it is returned as it is without splitting it.
  return isCanonical(path) ? path : resolvedSegments(path);
}

/** The walk of `normalisePath` over every segment, whatever the path (exported for the differential test). */
export function resolvedSegments(path: string): string {
  const segments: string[] = [];
  for (const raw of path.split('/')) {
    const segment = raw.replace(/%2e/gi, '.');
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(raw);
  }
  const trailing = path.length > 1 && path.endsWith('/') && segments.length > 0 ? '/' : '';
  return `/${segments.join('/')}${trailing}`;
}

/**
 * True only for paths `normalisePath` returns unchanged: rooted, no empty segment, no segment that is
 * or may decode to `.` or `..` (no `/.` at all, no `%2e` at all).
 */
function isCanonical(path: string): boolean {
  return path.startsWith('/') && !path.includes('//') && !path.includes('/.') && !ENCODED_DOT.test(path);
}

const ENCODED_DOT = /%2e/i;

/**
 * Whether a segment of the path becomes `.` or `..` once an encoded separator (`%2f`, `%5c`) in it is
 * decoded, as in `/public/..%2fadmin` or `/public/%2e%2e%5cadmin`. `normalisePath` keeps such a
 * segment whole, so a rule for `/public/<.*>` would match it, while an upstream that decodes the
 * separator serves `/admin`. Encoded separators between ordinary names (`/files/a%2fb`) are fine.
 */
export function formsDotSegmentWhenDecoded(path: string): boolean {
  // Without a '%' there is no encoded separator to decode.
  return path.includes('%') && hasDotSegmentWhenDecoded(path);
}

/** The walk of `formsDotSegmentWhenDecoded` over every segment (exported for the differential test). */
export function hasDotSegmentWhenDecoded(path: string): boolean {
  for (const segment of path.split('/')) {
    if (!/%(2f|5c)/i.test(segment)) continue;
    const decoded = segment.replace(/%2e/gi, '.').replace(/%2f/gi, '/').replace(/%5c/gi, '\\');
    if (decoded.split(/[/\\]/).some((part) => part === '.' || part === '..')) return true;
  }
  return false;
}

/**
 * The URL a request is judged as: `scheme://host`, the path made canonical (`normalisePath`) and the
 * query parts joined again. Throws when the host is not a bare host (a path, credentials or a query in
 * it) or no valid URL results.
 */
export function judgedUrl(scheme: string, host: string, rawPath: string, query: readonly string[]): URL {
  const { path, search } = judgedTarget(rawPath, query);
  // One parse of the whole string costs a third of a parse and two setter calls. It gives the same URL
  // when the host is a plain name or address and the rest is printable ASCII without `#` (which the
  // setters encode and a parse takes as a fragment) and, in the path, without `?`; anything else is
  // built piece by piece.
  if (PLAIN_HOST.test(host) && PLAIN_PATH.test(path) && PLAIN_SEARCH.test(search)) return new URL(`${scheme}://${host}${path}${search}`);
  return bySetters(scheme, host, path, search);
}

/** `judgedUrl` always built piece by piece, never by the one parse (exported for the differential test). */
export function judgedUrlBySetters(scheme: string, host: string, rawPath: string, query: readonly string[]): URL {
  const { path, search } = judgedTarget(rawPath, query);
  return bySetters(scheme, host, path, search);
}

const PLAIN_HOST = /^[A-Za-z0-9.-]+(?::[0-9]*)?$/;
/** Printable ASCII but `#`, and in the path also `?` (which a parse would take as the query's start). */
const PLAIN_PATH = /^[\x21\x22\x24-\x3e\x40-\x7e]*$/;
const PLAIN_SEARCH = /^[\x21\x22\x24-\x7e]*$/;

/** The canonical path and the search the query parts make. */
function judgedTarget(rawPath: string, query: readonly string[]): { path: string; search: string } {
  return {
    path: normalisePath(rawPath.startsWith('/') ? rawPath : `/${rawPath}`),
    search: query.length === 0 ? '' : `?${query.join('?')}`,
  };
}

/** A parsed bare host with the path and search set on it. */
function bySetters(scheme: string, host: string, path: string, search: string): URL {
  const url = new URL(`${scheme}://${host}`);
  if (url.pathname !== '/' || url.username !== '' || url.password !== '' || url.search !== '') throw new Error('not a bare host');
  url.pathname = path;
  url.search = search;
  return url;
}

export interface JudgedRequestOptions {
  /** The path and query to judge (for /decisions: what follows the prefix). */
  readonly pathAndQuery: string;
  readonly trustedProxies: PeerList;
  /** TLS is terminated in front of the service, so the listener's own scheme is always http. */
  readonly scheme: 'http';
  /**
   * Whether a trusted proxy may name the request to judge (X-Forwarded-Method and -Uri): yes for the
   * decision API, which judges a request it does not forward; no for the proxy, which forwards what
   * it judged.
   */
  readonly forwardedRequest: boolean;
}

/**
 * The request as the pipeline judges it. `X-Forwarded-Method`, `-Proto`, `-Host`, `-Uri` and `-For`
 * are read only when the TCP peer is a trusted proxy (DECISIONS_TRUSTED_PROXIES); from anyone else
 * they are ignored, so a client cannot talk its way into another rule.
 */
export function judgedRequest(request: FastifyRequest, options: JudgedRequestOptions): JudgedRequest {
  const peer = request.raw.socket.remoteAddress ?? '';
  const trusted = options.trustedProxies.includes(request.raw.socket);
  const forwarded = (name: string): string | undefined => {
    if (!trusted) return undefined;
    const value = request.headers[name];
    const first = Array.isArray(value) ? value[0] : value;
    return first === undefined || first === '' ? undefined : first;
  };
  const method = ((options.forwardedRequest ? forwarded('x-forwarded-method') : undefined) ?? request.method).toUpperCase();
  const proto = forwarded('x-forwarded-proto')?.split(',', 1)[0]?.trim().toLowerCase();
  const scheme = proto === 'https' || proto === 'http' ? proto : options.scheme;
  const host = forwarded('x-forwarded-host')?.split(',', 1)[0]?.trim() ?? request.headers.host ?? '';
  const pathAndQuery = (options.forwardedRequest ? forwarded('x-forwarded-uri') : undefined) ?? options.pathAndQuery;
  const [rawPath = '/', ...query] = pathAndQuery.split('?');
  // Only a '%' can start a malformed escape; most judged paths have none, and decoding builds a string.
  if (rawPath.includes('%')) {
    try {
      decodeURIComponent(rawPath);
    } catch (error) {
      throw new DecisionsError(DecisionsErrorCode.InvalidRequest, 'The request path holds a malformed percent-encoding.', { cause: error });
    }
  }
  if (formsDotSegmentWhenDecoded(rawPath))
    throw new DecisionsError(DecisionsErrorCode.InvalidRequest, 'The request path holds a dot segment behind an encoded separator.');
  let url: URL;
  try {
    url = judgedUrl(scheme, host, rawPath, query);
  } catch (error) {
    throw new DecisionsError(DecisionsErrorCode.InvalidRequest, 'The request names no valid host and path to judge.', { cause: error });
  }
  const clientAddress = forwarded('x-forwarded-for')?.split(',', 1)[0]?.trim();
  return {
    method,
    url,
    headers: request.headers,
    remoteAddress: clientAddress ?? peer,
    readCookies: () => requestCookies(request),
  };
}
