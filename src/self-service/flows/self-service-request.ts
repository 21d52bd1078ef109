import { acceptsHtml } from '../../common/html/accepts-html.js';

/** A cookie the answer sets (`value`, for `maxAgeSeconds`, undefined = browser session) or clears (`value` null). */
export interface CookieChange {
  readonly name: string;
  readonly value: string | null;
  readonly maxAgeSeconds?: number;
}

/**
 * What self-service reads of one HTTP request, read at the edge (self-service-edge.ts) so that the
 * flows decide without the transport. Two members are notes for the answer rather than facts: `browser`
 * (the request belongs to a browser flow, so its errors go to the error UI) and `setCookies` (cookies
 * decided on the way: the CSRF cookie of a new browser flow, the session cookie); the responder writes
 * them with whatever the outcome is, or with the error.
 */
export interface SelfServiceRequest {
  readonly query: Readonly<Record<string, unknown>>;
  /** The body as parsed (forms and JSON); see forms/submission.ts. */
  readonly body: unknown;
  /** The `Content-Type` header. */
  readonly contentType: string | undefined;
  readonly accept: string | undefined;
  /** Whether a `Cookie` header came (API flows refuse it). */
  readonly hasCookieHeader: boolean;
  readonly origin: string | undefined;
  /**
   * The request's cookies. A flow start that sets the CSRF cookie writes it here too, so that a later
   * read in the same request sees it.
   */
  readonly browserCookies: Record<string, string | undefined>;
  /** The session token presented (`X-Session-Token`, cookie, or bearer), if any. */
  readonly sessionToken: string | undefined;
  readonly ip: string;
  /** The path and query the client called. */
  readonly url: string;
  browser: boolean;
  setCookies: CookieChange[] | undefined;
}

/** Marks a request as belonging to a browser flow: its errors are shown on the error UI when it navigates. */
export function markBrowserFlow(request: SelfServiceRequest): void {
  request.browser = true;
}

/** Records a cookie for the answer to set or clear. */
export function setCookie(request: SelfServiceRequest, change: CookieChange): void {
  (request.setCookies ??= []).push(change);
}

/**
 * Whether a browser-flow client asked for JSON (a single-page app: `Accept: application/json` without
 * preferring HTML). Such clients get JSON answers where a navigating browser gets redirects.
 */
export function wantsJson(accept: string | undefined): boolean {
  return accept !== undefined && /application\/json/i.test(accept) && !acceptsHtml(accept);
}
