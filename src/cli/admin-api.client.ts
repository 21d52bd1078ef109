/** A failed admin API call, with what the server said in whichever of the three error shapes it used. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The parsed body, for the few answers whose error status still carries a result (a denied check). */
    readonly body: unknown = undefined,
  ) {
    super(message);
    this.name = 'AdminApiError';
  }
}

/** The server could not be reached at all (refused, reset, timed out, bad URL). */
export class AdminUnreachableError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(
      `cannot reach ${url}: ${cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause)}`,
    );
    this.name = 'AdminUnreachableError';
  }
}

export interface AdminResponse<T> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/** A small client of Latchkey's admin listener: JSON in and out, the credential on every call. */
export class AdminApiClient {
  private readonly base: URL;

  constructor(
    baseUrl: string,
    private readonly token: string | undefined,
    private readonly timeoutMs = 30_000,
  ) {
    this.base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  }

  get<T>(path: string, query: Query = {}): Promise<AdminResponse<T>> {
    return this.call<T>('GET', path, query, undefined);
  }

  post<T>(path: string, body: unknown, query: Query = {}): Promise<AdminResponse<T>> {
    return this.call<T>('POST', path, query, body);
  }

  put<T>(path: string, body: unknown, query: Query = {}): Promise<AdminResponse<T>> {
    return this.call<T>('PUT', path, query, body);
  }

  patch<T>(path: string, body: unknown, query: Query = {}): Promise<AdminResponse<T>> {
    return this.call<T>('PATCH', path, query, body);
  }

  delete(path: string, query: Query = {}): Promise<AdminResponse<undefined>> {
    return this.call<undefined>('DELETE', path, query, undefined);
  }

  /** A form-encoded POST (introspection takes a form, as RFC 7662 says). */
  postForm<T>(path: string, form: Readonly<Record<string, string>>): Promise<AdminResponse<T>> {
    return this.send<T>('POST', this.url(path, {}), new URLSearchParams(form).toString(), 'application/x-www-form-urlencoded');
  }

  private call<T>(method: string, path: string, query: Query, body: unknown): Promise<AdminResponse<T>> {
    return this.send<T>(method, this.url(path, query), body === undefined ? undefined : JSON.stringify(body), 'application/json');
  }

  private url(path: string, query: Query): URL {
    const url = new URL(path.replace(/^\//, ''), this.base);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
    return url;
  }

  private async send<T>(method: string, url: URL, body: string | undefined, contentType: string): Promise<AdminResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token !== undefined) headers['authorization'] = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = contentType;
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(this.timeoutMs), redirect: 'error' });
    } catch (error) {
      throw new AdminUnreachableError(url.origin, error);
    }
    const text = await response.text();
    const parsed: unknown = text === '' ? undefined : parseJson(text);
    if (!response.ok) {
      const error = errorOf(response.status, parsed);
      throw new AdminApiError(error.status, error.code, error.message, parsed);
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Reads the three error shapes the admin API uses: the OAuth family's `{error, error_description}`,
 * the identity family's `{error: {id, code, reason, message}}` and the access family's `{id, code, reason,
 * message}`, where `id` is the error code and `code` the status.
 */
function errorOf(status: number, body: unknown): AdminApiError {
  if (typeof body === 'object' && body !== null) {
    const record = body as Record<string, unknown>;
    const nested = record['error'];
    if (typeof nested === 'object' && nested !== null) {
      const inner = nested as Record<string, unknown>;
      return new AdminApiError(status, String(inner['id'] ?? inner['status'] ?? status), describe(inner['reason'], inner['message']));
    }
    if (typeof nested === 'string') return new AdminApiError(status, nested, describe(record['error_description'], undefined));
    if (typeof record['reason'] === 'string' || typeof record['message'] === 'string') {
      return new AdminApiError(status, String(record['id'] ?? record['status'] ?? status), describe(record['reason'], record['message']));
    }
  }
  return new AdminApiError(status, String(status), typeof body === 'string' && body !== '' ? body.slice(0, 200) : 'no details');
}

function describe(first: unknown, second: unknown): string {
  const parts = [first, second].filter((part): part is string => typeof part === 'string' && part !== '');
  return parts.length === 0 ? 'no details' : [...new Set(parts)].join(': ');
}
