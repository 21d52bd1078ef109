import { sha256Base64url } from '../../common/crypto/digest.js';
import { TtlCache } from '../../common/cache/ttl-cache.js';
import { headerOf, type AuthenticationSession, type JudgedRequest } from './authentication-session.js';
import type { DecisionPorts, OutboundAnswer, SessionDocument, TokenIntrospection } from './decision-ports.js';
import { DecisionsError } from '../decisions.errors.js';
import { goDuration, HandlerConfigError, Schemas } from './handler-config.js';
import { noConfig, NotResponsible, type HandlerDefinition } from './handler.js';
import { dependencyDown, unexpectedAnswer } from './outbound-answer.js';
import { RETRY_SCHEMA, retryPolicy, withRetries, type RetryConfig, type RetryPolicy } from './retry.js';
import { allScopesGranted, type ScopeStrategy } from './scope-strategy.js';
import { jsonPath, tokenFrom, type TokenFrom } from './token-source.js';

/** The self-service session cookie, read by `cookie_session` in process. */
const SESSION_COOKIE = 'service_session';

const ownOrNone = (url: unknown, isOwnUrl: (url: string) => boolean): boolean => typeof url !== 'string' || isOwnUrl(url);

interface SessionCheckConfig {
  readonly check_session_url?: string;
  readonly preserve_path: boolean;
  readonly subject_from?: string;
  readonly extra_from?: string;
  readonly only: readonly string[];
  readonly token_from?: TokenFrom;
}

const sessionCheckSchema = (withOnly: boolean): Record<string, unknown> => ({
  type: 'object',
  additionalProperties: false,
  properties: {
    check_session_url: Schemas.url,
    preserve_path: { type: 'boolean', default: false },
    subject_from: { type: 'string', minLength: 1 },
    extra_from: { type: 'string', minLength: 1 },
    ...(withOnly ? { only: { ...Schemas.stringList, default: [] } } : { token_from: Schemas.tokenFrom }),
  },
});

/** Headers that belong to one connection or one body, never forwarded to a session checker. */
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'expect',
]);

/** The judged request's headers as a session checker gets them (repeated values joined), plus `extra`. */
function forwardedHeaders(request: JudgedRequest, extra: Readonly<Record<string, string>>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || NOT_FORWARDED.has(name) || name.startsWith('proxy-')) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { ...headers, ...extra };
}

/** A session as its check found it; `inProcess` for our own sessions, read as whoami shows them. */
interface CheckedSession {
  readonly document: unknown;
  readonly inProcess: boolean;
}

/**
 * The session document of a request: in process (our self-service sessions, read as whoami shows
 * them; at once when the session cache holds it) when the check URL is ours or absent, else from
 * `check_session_url`, asked with the judged request's method and headers (Oathkeeper forwards both,
 * so a checker may judge by either). Non-200 → 401, as Oathkeeper.
 */
function checkSession(
  ports: DecisionPorts,
  config: SessionCheckConfig,
  request: JudgedRequest,
  token: string,
  credential: Readonly<Record<string, string>>,
): CheckedSession | Promise<CheckedSession> {
  const url = config.check_session_url;
  if (url === undefined || ports.isOwnUrl(url)) {
    const session = ports.session(token);
    return session instanceof Promise ? session.then(ownSession) : ownSession(session);
  }
  return checkRemoteSession(ports, config, request, url, credential);
}

function ownSession(session: SessionDocument | undefined): CheckedSession {
  if (session === undefined) throw DecisionsError.unauthorized();
  return { document: session, inProcess: true };
}

async function checkRemoteSession(
  ports: DecisionPorts,
  config: SessionCheckConfig,
  request: JudgedRequest,
  url: string,
  credential: Readonly<Record<string, string>>,
): Promise<CheckedSession> {
  const target = new URL(url);
  if (!config.preserve_path) target.pathname = request.url.pathname;
  let answer: OutboundAnswer;
  try {
    answer = await ports.forward(target.href, request.method, forwardedHeaders(request, credential));
  } catch (error) {
    throw DecisionsError.unreachable('The session check did not answer.', error);
  }
  // Non-200 is a refused session, except a checker that is down: that says nothing of the session.
  if (dependencyDown(answer)) throw unexpectedAnswer(answer, 'The session check');
  if (answer.status !== 200) throw DecisionsError.unauthorized();
  return { document: parseJson(answer.body), inProcess: false };
}

/** Fills the session from a checked one: at once when the check answered at once, else once it has. */
function sessionFrom(
  session: AuthenticationSession,
  config: SessionCheckConfig,
  checked: CheckedSession | Promise<CheckedSession>,
  defaultSubject: string,
): Promise<void> | undefined {
  if (checked instanceof Promise) return checked.then((answer) => fillSession(session, config, answer, defaultSubject));
  fillSession(session, config, checked, defaultSubject);
  return undefined;
}

function fillSession(session: AuthenticationSession, config: SessionCheckConfig, checked: CheckedSession, defaultSubject: string): void {
  const { document, inProcess } = checked;
  // In process the document is our whoami answer, whose subject is the identity id; Oathkeeper's
  // defaults (`subject`, `extra`) describe the remote checker's document.
  const subject = jsonPath(document, config.subject_from ?? (inProcess ? 'identity.id' : defaultSubject));
  const extra = jsonPath(document, config.extra_from ?? (inProcess ? '@this' : 'extra'));
  session.Subject = typeof subject === 'string' ? subject : subject === undefined || subject === null ? '' : JSON.stringify(subject);
  session.Extra = extra !== null && typeof extra === 'object' && !Array.isArray(extra) ? { ...(extra as Record<string, unknown>) } : {};
}

const cookieSession: HandlerDefinition = {
  schema: sessionCheckSchema(true),
  reachesOtherHost: (config, isOwnUrl) => !ownOrNone(config['check_session_url'], isOwnUrl),
  prepare: (raw) => {
    const config = raw as unknown as SessionCheckConfig;
    return {
      run: (request, session, ports) => {
        const cookies = request.readCookies();
        const names = Object.keys(cookies);
        const responsible = config.only.length === 0 ? names.length > 0 : config.only.some((name) => cookies[name] !== undefined);
        if (!responsible) throw new NotResponsible();
        const token = cookies[SESSION_COOKIE] ?? '';
        if (token === '' && (config.check_session_url === undefined || ports.isOwnUrl(config.check_session_url)))
          throw DecisionsError.unauthorized();
        return sessionFrom(session, config, checkSession(ports, config, request, token, {}), 'subject');
      },
    };
  },
};

const bearerToken: HandlerDefinition = {
  schema: sessionCheckSchema(false),
  reachesOtherHost: (config, isOwnUrl) => !ownOrNone(config['check_session_url'], isOwnUrl),
  prepare: (raw) => {
    const config = raw as unknown as SessionCheckConfig;
    return {
      run: (request, session, ports) => {
        // Without token_from, our own session header (X-Session-Token) counts as much as a bearer token.
        const token =
          config.token_from === undefined
            ? (nonEmpty(headerOf(request, 'x-session-token')) ?? tokenFrom(request, undefined))
            : tokenFrom(request, config.token_from);
        if (token === undefined) throw new NotResponsible();
        // The token may have come from a query parameter or a cookie: the checker gets it as a bearer token too.
        const credential: Record<string, string> =
          headerOf(request, 'authorization') === undefined ? { authorization: `Bearer ${token}` } : {};
        return sessionFrom(session, config, checkSession(ports, config, request, token, credential), 'sub');
      },
    };
  },
};

const anonymous: HandlerDefinition = {
  schema: { type: 'object', additionalProperties: false, properties: { subject: { type: 'string', default: 'anonymous' } } },
  reachesOtherHost: () => false,
  prepare: (config) => ({
    run: (request, session) => {
      if (headerOf(request, 'authorization') !== undefined) throw new NotResponsible();
      session.Subject = config['subject'] as string;
    },
  }),
};

type ActiveIntrospection = Extract<TokenIntrospection, { active: true }>;

interface IntrospectionConfig {
  readonly introspection_url?: string;
  readonly scope_strategy: ScopeStrategy;
  readonly required_scope: readonly string[];
  readonly target_audience: readonly string[];
  readonly trusted_issuers: readonly string[];
  readonly introspection_request_headers: Readonly<Record<string, string>>;
  readonly token_from?: TokenFrom;
  readonly cache: { readonly enabled: boolean; readonly ttl: string };
  readonly pre_authorization: {
    readonly enabled: boolean;
    readonly client_id?: string;
    readonly client_secret?: string;
    readonly token_url?: string;
    readonly scope: readonly string[];
  };
  readonly retry: RetryConfig;
}

/**
 * The access token a remote introspection endpoint is called with when `pre_authorization` is on:
 * fetched with the client credentials grant, kept until shortly before it expires, one fetch at a
 * time, and dropped when the endpoint refuses it.
 */
class PreAuthorization {
  private token: { readonly value: string; readonly until: number } | undefined;
  private fetching: Promise<string> | undefined;

  constructor(
    private readonly clientId: string,
    private readonly clientSecret: string,
    private readonly tokenUrl: string,
    private readonly scope: readonly string[],
    readonly retryPolicy: RetryPolicy,
  ) {}

  async header(ports: DecisionPorts): Promise<string> {
    if (this.token !== undefined && this.token.until > Date.now()) return `Bearer ${this.token.value}`;
    this.fetching ??= this.fetch(ports).finally(() => (this.fetching = undefined));
    return `Bearer ${await this.fetching}`;
  }

  forget(): void {
    this.token = undefined;
  }

  private async fetch(ports: DecisionPorts): Promise<string> {
    const form: Record<string, string> = { grant_type: 'client_credentials' };
    if (this.scope.length > 0) form['scope'] = this.scope.join(' ');
    const basic = Buffer.from(`${encodeURIComponent(this.clientId)}:${encodeURIComponent(this.clientSecret)}`).toString('base64');
    let answer: OutboundAnswer;
    try {
      answer = await withRetries(this.retryPolicy, () => ports.postForm(this.tokenUrl, form, { authorization: `Basic ${basic}` }));
    } catch (error) {
      throw DecisionsError.unreachable('The token endpoint for introspection did not answer.', error);
    }
    if (answer.status !== 200) throw unexpectedAnswer(answer, 'The token endpoint for introspection');
    const body = parseJson(answer.body) as Record<string, unknown>;
    const value = body['access_token'];
    if (typeof value !== 'string' || value === '')
      throw DecisionsError.failed('The token endpoint for introspection sent no access token.');
    const lifetime = Number(body['expires_in']);
    // A token without a lifetime is used for a minute; one with, until ten seconds before its end.
    const keepMs = Number.isFinite(lifetime) && lifetime > 0 ? Math.max(lifetime * 1000 - 10_000, 1000) : 60_000;
    this.token = { value, until: Date.now() + keepMs };
    return value;
  }
}

const introspection: HandlerDefinition = {
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      introspection_url: Schemas.url,
      scope_strategy: { ...Schemas.scopeStrategy, default: 'none' },
      required_scope: { ...Schemas.stringList, default: [] },
      target_audience: { ...Schemas.stringList, default: [] },
      trusted_issuers: { ...Schemas.stringList, default: [] },
      introspection_request_headers: { type: 'object', additionalProperties: { type: 'string' }, default: {} },
      token_from: Schemas.tokenFrom,
      cache: {
        type: 'object',
        additionalProperties: false,
        properties: { enabled: { type: 'boolean', default: false }, ttl: { type: 'string', default: '10s' } },
        default: {},
      },
      pre_authorization: {
        type: 'object',
        additionalProperties: false,
        properties: {
          enabled: { type: 'boolean', default: false },
          client_id: { type: 'string', minLength: 1 },
          client_secret: { type: 'string', minLength: 1 },
          token_url: Schemas.url,
          scope: { ...Schemas.stringList, default: [] },
        },
        default: {},
      },
      retry: RETRY_SCHEMA,
    },
  },
  reachesOtherHost: (config, isOwnUrl) => !ownOrNone(config['introspection_url'], isOwnUrl),
  prepare: (raw, path) => {
    const config = raw as unknown as IntrospectionConfig;
    const ttlMs = goDuration(config.cache.ttl, `${path}.cache.ttl`);
    const preAuthorization = preAuthorizationOf(config, path);
    // Oathkeeper's introspection cache (off by default): the raw answer, per rule, keyed by the token's
    // hash; the scope, audience and issuer checks run on every request, so a token cached for one
    // rule is never taken as good enough for another rule's stricter checks.
    const cache = config.cache.enabled ? new TtlCache<string, ActiveIntrospection>({ ttlMs, maxEntries: 100_000 }) : undefined;
    return {
      run: async (request, session, ports) => {
        const token = tokenFrom(request, config.token_from);
        if (token === undefined) throw new NotResponsible();
        const key = cache === undefined ? '' : sha256Base64url(token);
        let result: ActiveIntrospection | { active: false } | undefined = cache?.get(key);
        if (result === undefined) {
          result = await introspect(ports, config, token, preAuthorization);
          // Only active answers: random tokens must not crowd the good ones out.
          if (result.active) cache?.set(key, result);
        }
        if (result.active && result.exp !== 0 && result.exp * 1000 <= Date.now()) throw DecisionsError.unauthorized();
        if (!result.active) throw DecisionsError.unauthorized();
        if (result.token_type !== '' && result.token_type !== 'access_token')
          throw DecisionsError.forbidden('The token is not an access token.');
        const granted = result.scope.split(' ').filter((scope) => scope !== '');
        if (!allScopesGranted(config.scope_strategy, granted, config.required_scope)) {
          // Without a strategy the introspection endpoint itself filters by scope and answers inactive.
          throw config.scope_strategy === 'none'
            ? DecisionsError.unauthorized()
            : DecisionsError.forbidden('The token lacks a required scope.');
        }
        if (!config.target_audience.every((audience) => result.aud.includes(audience)))
          throw DecisionsError.forbidden('The token is not meant for this audience.');
        if (config.trusted_issuers.length > 0 && !config.trusted_issuers.includes(result.iss))
          throw DecisionsError.forbidden('The token comes from an untrusted issuer.');
        session.Subject = result.sub;
        session.Extra = { ...result.ext, client_id: result.client_id, scope: result.scope };
      },
    };
  },
};

/**
 * `pre_authorization` of a remote introspection endpoint (with it, and only with it, `retry` applies,
 * as in Oathkeeper); undefined when off or when the endpoint is ours (no call to authorize).
 */
function preAuthorizationOf(config: IntrospectionConfig, path: string): PreAuthorization | undefined {
  const pre = config.pre_authorization;
  if (!pre.enabled) return undefined;
  for (const member of ['client_id', 'client_secret', 'token_url'] as const) {
    if (pre[member] === undefined) throw new HandlerConfigError(`${path}.pre_authorization.${member}`, 'is required when enabled');
  }
  return new PreAuthorization(pre.client_id!, pre.client_secret!, pre.token_url!, pre.scope, retryPolicy(config.retry, `${path}.retry`));
}

async function introspect(
  ports: DecisionPorts,
  config: IntrospectionConfig,
  token: string,
  preAuthorization: PreAuthorization | undefined,
): Promise<Extract<TokenIntrospection, { active: true }> | { active: false }> {
  const url = config.introspection_url;
  if (url === undefined || ports.isOwnUrl(url)) return ports.introspect(token);
  const form: Record<string, string> = { token };
  if (config.scope_strategy === 'none' && config.required_scope.length > 0) form['scope'] = config.required_scope.join(' ');
  const send = async (): Promise<OutboundAnswer> => {
    if (preAuthorization === undefined) return ports.postForm(url, form, config.introspection_request_headers);
    const headers = { ...config.introspection_request_headers, authorization: await preAuthorization.header(ports) };
    return withRetries(preAuthorization.retryPolicy, () => ports.postForm(url, form, headers));
  };
  let answer: OutboundAnswer;
  try {
    answer = await send();
    // A refused pre-authorization token may have been revoked early: one more try with a fresh one.
    if (answer.status === 401 && preAuthorization !== undefined) {
      preAuthorization.forget();
      answer = await send();
    }
  } catch (error) {
    if (error instanceof DecisionsError) throw error;
    throw DecisionsError.unreachable('The introspection endpoint did not answer.', error);
  }
  if (answer.status !== 200) throw unexpectedAnswer(answer, 'The introspection endpoint');
  const body = parseJson(answer.body) as Record<string, unknown>;
  if (body['active'] !== true) return { active: false };
  const aud = body['aud'];
  return {
    active: true,
    scope: typeof body['scope'] === 'string' ? body['scope'] : '',
    client_id: typeof body['client_id'] === 'string' ? body['client_id'] : '',
    sub: typeof body['sub'] === 'string' ? body['sub'] : '',
    exp: Number(body['exp']) || 0,
    iat: Number(body['iat']) || 0,
    aud: Array.isArray(aud) ? aud.map(String) : typeof aud === 'string' ? [aud] : [],
    iss: typeof body['iss'] === 'string' ? body['iss'] : '',
    token_type: typeof body['token_type'] === 'string' ? body['token_type'] : '',
    ext: body['ext'] !== null && typeof body['ext'] === 'object' ? (body['ext'] as Record<string, unknown>) : {},
  };
}

interface ClientCredentialsConfig {
  readonly token_url?: string;
  readonly required_scope: readonly string[];
}

const clientCredentials: HandlerDefinition = {
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: { token_url: Schemas.url, required_scope: { ...Schemas.stringList, default: [] } },
  },
  reachesOtherHost: (config, isOwnUrl) => !ownOrNone(config['token_url'], isOwnUrl),
  prepare: (raw) => {
    const config = raw as unknown as ClientCredentialsConfig;
    return {
      run: async (request, session, ports) => {
        const credentials = basicCredentials(headerOf(request, 'authorization'));
        if (credentials === undefined) throw new NotResponsible();
        const url = config.token_url;
        if (url === undefined || ports.isOwnUrl(url)) {
          const client = await ports.authenticateClient(credentials.id, credentials.secret);
          if (client === undefined || !client.grantTypes.includes('client_credentials')) throw DecisionsError.unauthorized();
          if (!config.required_scope.every((scope) => client.scope.includes(scope))) throw DecisionsError.unauthorized();
          session.Subject = client.clientId;
          return;
        }
        const form: Record<string, string> = { grant_type: 'client_credentials' };
        if (config.required_scope.length > 0) form['scope'] = config.required_scope.join(' ');
        const basic = Buffer.from(`${encodeURIComponent(credentials.id)}:${encodeURIComponent(credentials.secret)}`).toString('base64');
        let answer: OutboundAnswer;
        try {
          answer = await ports.postForm(url, form, { authorization: `Basic ${basic}` });
        } catch (error) {
          throw DecisionsError.unreachable('The token endpoint did not answer.', error);
        }
        // Non-200 refuses the credentials, except a token endpoint that is down: that says nothing of them.
        if (dependencyDown(answer)) throw unexpectedAnswer(answer, 'The token endpoint');
        if (answer.status !== 200) throw DecisionsError.unauthorized();
        session.Subject = credentials.id;
      },
    };
  },
};

/** HTTP Basic credentials, each part URL-unescaped as Oathkeeper (and RFC 6749 §2.3.1) reads them. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = header === undefined ? null : /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (match === null) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

interface JwtConfig {
  readonly jwks_urls: readonly string[];
  readonly required_scope: readonly string[];
  readonly target_audience: readonly string[];
  readonly trusted_issuers: readonly string[];
  readonly allowed_algorithms: readonly string[];
  readonly scope_strategy: ScopeStrategy;
  readonly token_from?: TokenFrom;
}

const jwt: HandlerDefinition = {
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      jwks_urls: { type: 'array', items: Schemas.url, default: [] },
      required_scope: { ...Schemas.stringList, default: [] },
      target_audience: { ...Schemas.stringList, default: [] },
      trusted_issuers: { ...Schemas.stringList, default: [] },
      allowed_algorithms: {
        type: 'array',
        items: { enum: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] },
        default: ['RS256'],
      },
      scope_strategy: { ...Schemas.scopeStrategy, default: 'none' },
      token_from: Schemas.tokenFrom,
    },
  },
  reachesOtherHost: (config, isOwnUrl) => ((config['jwks_urls'] as string[] | undefined) ?? []).some((url) => !isOwnUrl(url)),
  prepare: (raw) => {
    const config = raw as unknown as JwtConfig;
    return {
      run: async (request, session, ports) => {
        const token = tokenFrom(request, config.token_from);
        // Not a JWT (an opaque token or a session token): let the next authenticator try.
        if (token === undefined || token.split('.').length !== 3) throw new NotResponsible();
        const jwksUrls = config.jwks_urls.filter((url) => !ports.isOwnUrl(url));
        let claims: Record<string, unknown>;
        try {
          claims = await ports.verifyJwt(token, { jwksUrls, algorithms: config.allowed_algorithms });
        } catch (error) {
          if (error instanceof DecisionsError) throw error;
          throw DecisionsError.unauthorized('The token could not be verified.');
        }
        const aud = typeof claims['aud'] === 'string' ? [claims['aud']] : Array.isArray(claims['aud']) ? claims['aud'].map(String) : [];
        if (!config.target_audience.every((audience) => aud.includes(audience)))
          throw DecisionsError.unauthorized('The token is not meant for this audience.');
        if (config.trusted_issuers.length > 0 && !config.trusted_issuers.includes(String(claims['iss'])))
          throw DecisionsError.unauthorized('The token comes from an untrusted issuer.');
        if (!allScopesGranted(config.scope_strategy, scopesOf(claims), config.required_scope))
          throw DecisionsError.unauthorized('The token lacks a required scope.');
        session.Subject = typeof claims['sub'] === 'string' ? claims['sub'] : '';
        session.Extra = claims;
      },
    };
  },
};

/** Scopes of a JWT, as fosite reads them: `scp` (list), `scope` (space separated) or `scopes`. */
function scopesOf(claims: Record<string, unknown>): string[] {
  for (const name of ['scp', 'scope', 'scopes']) {
    const value = claims[name];
    if (Array.isArray(value)) return value.map(String);
    if (typeof value === 'string') return value.split(' ').filter((scope) => scope !== '');
  }
  return [];
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw DecisionsError.failed('A remote handler answered with invalid JSON.', error);
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

export const AUTHENTICATORS: Readonly<Record<string, HandlerDefinition>> = {
  noop: noConfig(() => undefined),
  anonymous,
  unauthorized: noConfig(() => {
    throw DecisionsError.unauthorized();
  }),
  cookie_session: cookieSession,
  bearer_token: bearerToken,
  jwt,
  oauth2_client_credentials: clientCredentials,
  oauth2_introspection: introspection,
};
