/** The request a decision is made on, as the pipeline sees it: no Fastify, no sockets. */
export interface JudgedRequest {
  readonly method: string;
  /** The URL judged: scheme, host and the normalised path (and the query, which matching ignores). */
  readonly url: URL;
  /** Lower-case names, as Node gives them. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The TCP peer; with a trusted proxy in front, the client it names in X-Forwarded-For. */
  readonly remoteAddress: string;
  /** The request's cookies, parsed on first use. */
  readonly readCookies: () => Readonly<Record<string, string | undefined>>;
}

/** What a template sees of the URL: Go's url.URL fields. */
export interface TemplateUrl {
  readonly Scheme: string;
  readonly Host: string;
  readonly Path: string;
  readonly RawQuery: string;
  readonly Fragment: string;
}

/**
 * Oathkeeper's AuthenticationSession, with the field names templates use: authenticators fill
 * `Subject` and `Extra`, mutators add to `Header` (sent upstream, or returned by the decision API).
 */
export interface AuthenticationSession {
  Subject: string;
  Extra: Record<string, unknown>;
  Header: Record<string, string>;
  readonly MatchContext: {
    readonly RegexpCaptureGroups: readonly string[];
    readonly URL: TemplateUrl;
    readonly Method: string;
  };
}

export function newSession(request: JudgedRequest, captures: readonly string[]): AuthenticationSession {
  const url = request.url;
  return {
    Subject: '',
    Extra: {},
    Header: {},
    MatchContext: {
      RegexpCaptureGroups: captures,
      URL: { Scheme: url.protocol.slice(0, -1), Host: url.host, Path: url.pathname, RawQuery: url.search.slice(1), Fragment: '' },
      Method: request.method,
    },
  };
}

export function headerOf(request: JudgedRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
