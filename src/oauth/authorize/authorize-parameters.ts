/** Hydra's own parameters: they bring the browser back from the login and consent apps. */
const VERIFIER_PARAMETERS: ReadonlySet<string> = new Set(['login_verifier', 'consent_verifier']);

export interface AuthorizeHttpInput {
  /** The query string as received, without the `?`. */
  readonly rawQuery: string;
  /** The parsed form body of a POST (`application/x-www-form-urlencoded`), else undefined. */
  readonly form: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The parameters of an authorization request: the query and, for POST, the form body (OIDC Core
 * §3.1.2.1). An empty value counts as absent, as in fosite (`form.Get`). Values are kept in order so
 * that a parameter given more than once can be refused (RFC 6749 §3.1).
 */
export class AuthorizeParameters {
  private constructor(
    private readonly values: ReadonlyMap<string, readonly string[]>,
    /** The query the login/consent apps send the browser back to (see `requestQuery`). */
    readonly requestQuery: string,
  ) {}

  static from(input: AuthorizeHttpInput): AuthorizeParameters {
    const values = new Map<string, string[]>();
    const add = (name: string, value: string): void => {
      const existing = values.get(name);
      if (existing === undefined) values.set(name, [value]);
      else existing.push(value);
    };
    for (const [name, value] of new URLSearchParams(input.rawQuery)) add(name, value);
    const posted = new URLSearchParams();
    for (const [name, raw] of Object.entries(input.form ?? {})) {
      for (const value of Array.isArray(raw) ? raw : [raw]) {
        const text = typeof value === 'string' ? value : String(value);
        add(name, text);
        if (!VERIFIER_PARAMETERS.has(name)) posted.append(name, text);
      }
    }
    const kept = input.rawQuery.split('&').filter((piece) => piece !== '' && !VERIFIER_PARAMETERS.has(decodeName(piece)));
    const postedQuery = posted.toString();
    return new AuthorizeParameters(values, [...kept, ...(postedQuery === '' ? [] : [postedQuery])].join('&'));
  }

  /**
   * These parameters with a request object's in their place (OIDC Core §6.3.3: its values win), and
   * without `request` and `request_uri`: the login and consent apps send the browser back to the
   * resolved request, so that the object is neither fetched nor counted (jti) a second time.
   */
  overriddenBy(objectParameters: Readonly<Record<string, string>>): AuthorizeParameters {
    const values = new Map<string, string[]>();
    for (const [name, given] of this.values) {
      if (name !== 'request' && name !== 'request_uri') values.set(name, [...given]);
    }
    for (const [name, value] of Object.entries(objectParameters)) values.set(name, [value]);
    const query = new URLSearchParams();
    for (const [name, given] of values) {
      if (VERIFIER_PARAMETERS.has(name)) continue;
      for (const value of given) query.append(name, value);
    }
    return new AuthorizeParameters(values, query.toString());
  }

  /** The value, or undefined when absent or empty. Use `repeated()` first: this reads the first one. */
  get(name: string): string | undefined {
    const value = this.values.get(name)?.[0];
    return value === undefined || value === '' ? undefined : value;
  }

  /** A space-separated parameter (scope, audience, prompt, ...), empty entries dropped. */
  list(name: string): string[] {
    return (this.get(name) ?? '').split(' ').filter((entry) => entry !== '');
  }

  /** Names given more than once (query and body together). */
  repeated(): string[] {
    return [...this.values].filter(([, values]) => values.length > 1).map(([name]) => name);
  }
}

/** The decoded name of a raw `name=value` query piece. */
function decodeName(piece: string): string {
  const name = piece.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
