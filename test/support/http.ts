export interface HttpResponse<T = unknown> {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  readonly body: T;
}

export interface RequestOptions {
  readonly headers?: Record<string, string>;
  /** Sent as JSON unless `rawBody` is given. */
  readonly json?: unknown;
  readonly rawBody?: string | Uint8Array;
  readonly form?: Record<string, string>;
}

/** A tiny client over real HTTP (fetch), bound to one listener's base URL and optional bearer token. */
export class HttpClient {
  constructor(
    readonly baseUrl: string,
    private readonly token?: string,
  ) {}

  withToken(token: string | undefined): HttpClient {
    return new HttpClient(this.baseUrl, token);
  }

  get<T = unknown>(path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    return this.request<T>('GET', path, options);
  }

  post<T = unknown>(path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    return this.request<T>('POST', path, options);
  }

  put<T = unknown>(path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    return this.request<T>('PUT', path, options);
  }

  patch<T = unknown>(path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    return this.request<T>('PATCH', path, options);
  }

  delete<T = unknown>(path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    return this.request<T>('DELETE', path, options);
  }

  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (this.token !== undefined && headers['authorization'] === undefined) headers['authorization'] = `Bearer ${this.token}`;
    let body: string | Uint8Array | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.form !== undefined) {
      body = new URLSearchParams(options.form).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed as T };
  }
}
