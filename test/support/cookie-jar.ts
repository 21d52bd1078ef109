/** One cookie as a server set it: its value and the attributes tests assert on (names lower-cased). */
export interface JarCookie {
  readonly value: string;
  readonly attributes: Readonly<Record<string, string | true>>;
}

/**
 * A browser's cookie store for one host, carried by hand between requests (fetch keeps none): takes
 * `Set-Cookie` headers in, gives a `Cookie` header out. A cookie set with `Max-Age=0` or an `Expires`
 * in the past is removed. Domain and path are ignored: every test talks to one host.
 */
export class CookieJar {
  private readonly cookies = new Map<string, JarCookie>();

  /** Takes the `Set-Cookie` headers of a response. */
  absorb(headers: Headers): this {
    for (const line of headers.getSetCookie()) this.set(line);
    return this;
  }

  /** The `Cookie` header to send, or an empty object when the jar is empty (for spreading into headers). */
  header(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([name, cookie]) => `${name}=${cookie.value}`).join('; ') };
  }

  get(name: string): JarCookie | undefined {
    return this.cookies.get(name);
  }

  names(): string[] {
    return [...this.cookies.keys()];
  }

  delete(name: string): void {
    this.cookies.delete(name);
  }

  /** A copy holding the same cookies (a second tab of the same browser). */
  clone(): CookieJar {
    const copy = new CookieJar();
    for (const [name, cookie] of this.cookies) copy.cookies.set(name, cookie);
    return copy;
  }

  private set(line: string): void {
    const [pair = '', ...rest] = line.split(';');
    const at = pair.indexOf('=');
    if (at <= 0) return;
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    const attributes: Record<string, string | true> = {};
    for (const part of rest) {
      const equals = part.indexOf('=');
      if (equals === -1) attributes[part.trim().toLowerCase()] = true;
      else attributes[part.slice(0, equals).trim().toLowerCase()] = part.slice(equals + 1).trim();
    }
    const maxAge = attributes['max-age'];
    const expires = attributes['expires'];
    const expired =
      (typeof maxAge === 'string' && Number(maxAge) <= 0) || (typeof expires === 'string' && Date.parse(expires) <= Date.now());
    if (expired) this.cookies.delete(name);
    else this.cookies.set(name, { value, attributes });
  }
}
