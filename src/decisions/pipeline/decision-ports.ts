/**
 * What the pipeline needs from the rest of Latchkey and from the network, as narrow interfaces: the
 * engine stays pure and is tested with fakes; DecisionsService wires these to the other contexts'
 * exported services (in process) and to the outbound client.
 */

/** A token as our introspection endpoint describes it (RFC 7662 with Hydra's fields). */
export type TokenIntrospection =
  | { readonly active: false }
  | {
      readonly active: true;
      readonly scope: string;
      readonly client_id: string;
      readonly sub: string;
      readonly exp: number;
      readonly iat: number;
      readonly aud: readonly string[];
      readonly iss: string;
      readonly token_type: string;
      readonly ext: Readonly<Record<string, unknown>>;
    };

export type SessionDocument = Readonly<Record<string, unknown>>;

export interface AuthenticatedClient {
  readonly clientId: string;
  readonly grantTypes: readonly string[];
  readonly scope: readonly string[];
}

export interface OutboundAnswer {
  readonly status: number;
  /** Response headers, lower-cased (only Retry-After is read, from a dependency that is down). */
  readonly headers?: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly body: Buffer;
}

export interface DecisionPorts {
  /** The self-service session of a token, as `/sessions/whoami` shows it; undefined when none. At once when cached. */
  session(token: string): SessionDocument | undefined | Promise<SessionDocument | undefined>;
  /** Our own introspection of an access or refresh token, without a scope filter. */
  introspect(token: string): Promise<TokenIntrospection>;
  /** A client of ours authenticated by id and secret; undefined when the credentials are wrong. */
  authenticateClient(clientId: string, secret: string): Promise<AuthenticatedClient | undefined>;
  /** A relation-tuple check. */
  checkTuple(namespace: string, object: string, relation: string, subject: string): boolean | Promise<boolean>;
  /** An ACP decision. */
  policyAllowed(
    flavor: string,
    request: { action: string; resource: string; subject: string; context: Record<string, unknown> },
  ): boolean | Promise<boolean>;
  /** Signs claims with the id_token mutator's key set (RS256 key generated at first start). */
  signIdToken(claims: Readonly<Record<string, unknown>>): Promise<string>;
  /** Verifies a JWT with our own published keys, or with the key sets at `jwksUrls` (outbound, cached). */
  verifyJwt(token: string, options: { jwksUrls: readonly string[]; algorithms: readonly string[] }): Promise<Record<string, unknown>>;
  /** Outbound calls, through the SSRF-safe client. */
  /** A bodiless request under the judged request's method (a remote session check). */
  forward(url: string, method: string, headers: Readonly<Record<string, string>>): Promise<OutboundAnswer>;
  postJson(url: string, body: unknown, headers: Readonly<Record<string, string>>): Promise<OutboundAnswer>;
  postForm(url: string, form: Readonly<Record<string, string>>, headers: Readonly<Record<string, string>>): Promise<OutboundAnswer>;
  /** Whether a URL names this service itself (then handlers answer in process, not over HTTP). */
  isOwnUrl(url: string): boolean;
  /** The issuer of our tokens. */
  readonly issuer: string;
}
