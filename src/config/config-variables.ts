import { resolve } from 'node:path';
import { sha256Hex } from '../common/crypto/digest.js';
import type { AppConfig, LogLevel, NodeEnv } from './app-config.js';
import {
  bool,
  byteSize,
  cidrList,
  claimsMapping,
  defaultDrainDelayMs,
  defaultHashingConcurrency,
  duration,
  emailAddress,
  folder,
  hexColor,
  httpUrl,
  identitySchemas,
  int,
  list,
  namespaces,
  oneOf,
  pipelineSettings,
  port,
  postgresUrl,
  PRIVATE_RANGES,
  rateLimitOverrides,
  rateLimitPlan,
  rateLimitProject,
  redisUrl,
  smtpConnection,
  subjectTypes,
  traitsMapping,
  urlList,
} from './config-parsers.js';
import { ConfigError } from './config.error.js';

export type ConfigSource = Readonly<Record<string, string | undefined>>;

/** Dotted paths into AppConfig (`tuples.maxDepth`, `oauth2.ttl.accessToken`); a list ends a path. */
export type ConfigPath<T = AppConfig> = {
  [K in keyof T & string]: NonNullable<T[K]> extends readonly unknown[] | string | number | boolean
    ? K
    : K | `${K}.${ConfigPath<NonNullable<T[K]>>}`;
}[keyof T & string];

/** The type of the AppConfig field at `P`. */
export type ConfigValue<P extends string, T = AppConfig> = P extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? ConfigValue<Rest, NonNullable<T[Head]>>
    : never
  : P extends keyof T
    ? T[P]
    : never;

/**
 * One setting: the AppConfig field it fills, how its value is parsed, and what docs/configuration.md
 * says of it (`npm run config:docs` writes the table from these).
 */
export interface ConfigVariable<P extends ConfigPath = ConfigPath> {
  readonly feeds: P;
  /** The default as the docs show it; the parser applies it. */
  readonly default: string;
  readonly description: string;
  /** A secret, or a value that may carry one (a URL with a password): marked as such in the docs. */
  readonly sensitive?: boolean;
  /**
   * `raw` is undefined when the key is unset or empty; a bad value throws a ConfigError naming `key`.
   * `config` holds the fields of the variables declared above this one (for defaults derived from
   * them), `env` the whole environment.
   */
  readonly parse: (raw: string | undefined, key: string, config: AppConfig, env: ConfigSource) => ConfigValue<P>;
}

function variable<P extends ConfigPath>(declaration: ConfigVariable<P>): ConfigVariable<P> {
  return declaration;
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const NODE_ENVS: readonly NodeEnv[] = ['development', 'production', 'test'];

/** The host of the default base URLs: a wildcard bind address is reached as localhost. */
function listenerHost(config: AppConfig): string {
  return config.http.host === '0.0.0.0' ? 'localhost' : config.http.host;
}

/** The built-in OAuth2 pages of the ui context; setting a URL to an app of one's own switches its page off. */
export function builtInPage(config: AppConfig, page: 'login' | 'consent' | 'logout'): string {
  return `${config.urls.issuer}/ui/oauth2/${page}`;
}

function longEnough(values: string[], key: string, problem: string): string[] {
  if (values.some((value) => value.length < 16)) throw new ConfigError(key, problem);
  return values;
}

function atLeastMinLength(maxLength: number, key: string, config: AppConfig): number {
  const { minLength } = config.passwordPolicy;
  if (maxLength < minLength) throw new ConfigError(key, `must be at least PASSWORD_MIN_LENGTH (${minLength})`);
  return maxLength;
}

/**
 * Every setting the service reads, in the order they are parsed (the first bad one stops the boot)
 * and listed in docs/configuration.md. Adding a setting is one entry here and its field in AppConfig.
 */
export const CONFIG_VARIABLES = {
  NODE_ENV: variable({
    feeds: 'env',
    default: '`development`',
    description: '`development`, `test` or `production`. In production a missing `SECRETS_SYSTEM` is a boot error.',
    parse: (raw, key) => oneOf(raw, key, NODE_ENVS, 'development'),
  }),
  PUBLIC_PORT: variable({
    feeds: 'http.publicPort',
    default: '`4444`',
    description: 'Public listener: OAuth2/OIDC endpoints, discovery, JWKS, self-service, health. `0` picks a free port.',
    parse: (raw, key) => port(raw, key, 4444),
  }),
  ADMIN_PORT: variable({
    feeds: 'http.adminPort',
    default: '`4445`',
    description: 'Admin listener: the admin API (also under `/admin`), metrics, version, health.',
    parse: (raw, key) => port(raw, key, 4445),
  }),
  PROXY_PORT: variable({
    feeds: 'http.proxyPort',
    default: 'unset (off)',
    description: 'Request-decision proxy listener; closed unless set.',
    parse: (raw, key) => (raw === undefined ? undefined : port(raw, key, 4455)),
  }),
  HOST: variable({
    feeds: 'http.host',
    default: '`127.0.0.1`',
    description: 'Address every listener binds to. Use `0.0.0.0` in containers.',
    parse: (raw) => raw ?? '127.0.0.1',
  }),
  ISSUER_URL: variable({
    feeds: 'urls.issuer',
    default: '`http://<HOST>:<PUBLIC_PORT>`',
    description:
      'Public base URL and OpenID Connect issuer (http/https, no query or fragment). The issuer identifier (`issuer` in discovery, `iss` of tokens and introspection) is the value exactly as written, a trailing `/` included (Hydra v1.5 always has one); URLs the service builds drop it.',
    parse: (raw, key, config) => httpUrl(raw, key, `http://${listenerHost(config)}:${config.http.publicPort}`),
  }),
  SECRETS_SYSTEM: variable({
    feeds: 'secrets.system',
    default: 'generated',
    description:
      'Comma-separated list, each ≥ 16 characters. The first encrypts and signs; all decrypt and verify, so a new secret is put first and the old one kept until data is rotated. Unset outside production: a random secret is generated once into `DATA_DIR/system-secret` (mode 0600) and reused.',
    sensitive: true,
    parse: (raw, key) => longEnough(list(raw), key, 'every secret must be at least 16 characters long'),
  }),
  ADMIN_TOKENS: variable({
    feeds: 'admin.tokenDigests',
    default: 'generated',
    description:
      'Comma-separated static admin bearer tokens, each ≥ 16 characters. Only their SHA-256 digests are kept in memory. Unset: one token is generated on first start, printed once, and only its digest is stored in `DATA_DIR/admin-token.sha256`.',
    sensitive: true,
    parse: (raw, key) => longEnough(list(raw), key, 'every token must be at least 16 characters long').map((token) => sha256Hex(token)),
  }),
  BODY_LIMIT: variable({
    feeds: 'http.bodyLimitBytes',
    default: '`1mb`',
    description: 'Largest accepted request body (bytes, or with `kb`/`mb`). Larger bodies get 413.',
    parse: (raw, key) => byteSize(raw, key, 1024 * 1024),
  }),
  TRUST_PROXY: variable({
    feeds: 'http.trustProxy',
    default: '`false`',
    description: 'Trust `X-Forwarded-*` from the peer (set when behind a reverse proxy).',
    parse: (raw, key) => bool(raw, key, false),
  }),
  ADMIN_URL: variable({
    feeds: 'urls.admin',
    default: '`http://<HOST>:<ADMIN_PORT>`',
    description:
      "Base URL of the admin listener as resource servers reach it: discovery's `introspection_endpoint` is `<ADMIN_URL>/oauth2/introspect`.",
    parse: (raw, key, config) => httpUrl(raw, key, `http://${listenerHost(config)}:${config.http.adminPort}`),
  }),
  DATABASE_URL: variable({
    feeds: 'database.url',
    default: 'unset',
    description:
      '`postgres://` URL of an external PostgreSQL. Unset: an embedded PostgreSQL is started in `DATA_DIR/postgres`, reached through a Unix socket there. A socket of an external server: `?host=/socket/dir`.',
    sensitive: true,
    parse: (raw, key) => postgresUrl(raw, key),
  }),
  DATA_DIR: variable({
    feeds: 'database.dataDir',
    default: '`./.data`',
    description: 'Folder for the embedded PostgreSQL and generated secrets.',
    parse: (raw) => resolve(raw ?? '.data'),
  }),
  DATABASE_POOL_SIZE: variable({
    feeds: 'database.poolSize',
    default: '`10`',
    description: 'Connections in the pool (one pool per process).',
    parse: (raw, key) => int(raw, key, 10, 1, 1000),
  }),
  DATABASE_CONNECT_TIMEOUT_MS: variable({
    feeds: 'database.connectTimeoutMs',
    default: '`5000`',
    description: 'How long a request waits for a pooled connection before failing (never hangs).',
    parse: (raw, key) => int(raw, key, 5000, 100, 600_000),
  }),
  DATABASE_STATEMENT_TIMEOUT_MS: variable({
    feeds: 'database.statementTimeoutMs',
    default: '`30000`',
    description: "PostgreSQL `statement_timeout` for the service's connections; `0` turns it off.",
    parse: (raw, key) => int(raw, key, 30_000, 0, 3_600_000),
  }),
  MIGRATE_ON_START: variable({
    feeds: 'database.migrateOnStart',
    default: '`true`',
    description:
      'Run pending migrations at start (under an advisory lock). When `false`, run `npm run migrate`; readiness stays 503 while migrations are pending.',
    parse: (raw, key) => bool(raw, key, true),
  }),
  CACHE_MAX_STALENESS: variable({
    feeds: 'database.cacheMaxStalenessSeconds',
    default: '`10s`',
    description:
      "The longest any in-process cache shared across instances (clients and remembered secret checks, keys, policies and roles, tuple checks, sessions) may serve a value after it changed when the change's announcement was missed: every instance drops all of them this often (clients and policies only when their rows changed). A duration: `10`, `10s`, `1m`.",
    parse: (raw, key) => duration(raw, key, 10),
  }),
  ADMIN_AUTH: variable({
    feeds: 'admin.auth',
    default: '`on`',
    description: '`off` lets every caller use the admin API: only for trusted networks; logged as a warning at boot.',
    parse: (raw, key) => oneOf(raw, key, ['on', 'off'] as const, 'on'),
  }),
  LOG_LEVEL: variable({
    feeds: 'log.level',
    default: '`info`',
    description: '`fatal`, `error`, `warn`, `info` (one line per request), `debug`, `trace` or `silent`.',
    parse: (raw, key) => oneOf(raw, key, LOG_LEVELS, 'info'),
  }),
  EXPOSE_INTERNAL_ERRORS: variable({
    feeds: 'errors.exposeInternal',
    default: '`false`',
    description: 'Add a `debug` member with the internal cause to 5xx error bodies. Never in production.',
    parse: (raw, key) => bool(raw, key, false),
  }),
  REDIS_URL: variable({
    feeds: 'redis.url',
    default: 'unset',
    description:
      '`redis://` or `rediss://` URL: rate-limit counters and inflight keys live there, shared by every instance of the project (docs/rate-limits.md). Unset: kept in each process.',
    sensitive: true,
    parse: (raw, key) => redisUrl(raw, key),
  }),
  SHUTDOWN_DRAIN_DELAY_MS: variable({
    feeds: 'shutdown.drainDelayMs',
    default: '`5000` when `NODE_ENV=production`, else `250`',
    description:
      'After SIGTERM/SIGINT, readiness answers 503 at once while the listeners keep serving for this long, so load balancers stop routing here (at least your readiness probe period times its failure threshold). The short default outside production keeps Ctrl-C quick.',
    parse: (raw, key, config) => int(raw, key, defaultDrainDelayMs(config.env), 0, 600_000),
  }),
  SHUTDOWN_TIMEOUT_MS: variable({
    feeds: 'shutdown.timeoutMs',
    default: '`25000`',
    description: 'After the drain delay, how long in-flight requests may still run before their connections are cut.',
    parse: (raw, key) => int(raw, key, 25_000, 0, 600_000),
  }),
  OUTBOUND_ALLOW_PRIVATE_NETWORKS: variable({
    feeds: 'outbound.allowPrivateNetworks',
    default: '`false`',
    description:
      'Allow outbound fetches (`sector_identifier_uri`, `jwks_uri`, `request_uri`, back-channel logout) to loopback, private and link-local addresses.',
    parse: (raw, key) => bool(raw, key, false),
  }),
  OUTBOUND_TIMEOUT_MS: variable({
    feeds: 'outbound.timeoutMs',
    default: '`5000`',
    description: 'Timeout of every outbound fetch.',
    parse: (raw, key) => int(raw, key, 5000, 100, 120_000),
  }),
  OUTBOUND_MAX_BYTES: variable({
    feeds: 'outbound.maxBytes',
    default: '`5mb`',
    description: 'Largest outbound response body read.',
    parse: (raw, key) => byteSize(raw, key, 5 * 1024 * 1024),
  }),
  OUTBOUND_CA_FILE: variable({
    feeds: 'outbound.caFile',
    default: 'unset',
    description:
      'PEM file of CA certificates trusted for outbound HTTPS in addition to the system CAs (a private CA, or a test certificate). An unreadable file stops the boot.',
    parse: (raw) => raw,
  }),
  NAMESPACES: variable({
    feeds: 'tuples.namespaces',
    default: '`[]`',
    description:
      'Relation-tuple namespaces as a JSON list (`[{"name":"files","id":1}]`), or a YAML list in the config file. Tuples are stored under the numeric `id`: rename freely, never renumber. Names: 1–64 characters without `:`, `#`, `@`, whitespace or control characters; names and ids both unique.',
    parse: (raw, key) => namespaces(raw, key),
  }),
  TUPLES_MAX_DEPTH: variable({
    feeds: 'tuples.maxDepth',
    default: '`5`',
    description: 'Depth of check and expand when a request names none, and the most a request may ask for (1–100).',
    parse: (raw, key) => int(raw, key, 5, 1, 100),
  }),
  TUPLES_CACHE_SIZE: variable({
    feeds: 'tuples.cacheSize',
    default: '`100000`',
    description: 'Entries of the in-process check cache (dropped on every write, on every instance); `0` turns it off.',
    parse: (raw, key) => int(raw, key, 100_000, 0, 10_000_000),
  }),
  TUPLES_SET_CACHE_SIZE: variable({
    feeds: 'tuples.setCacheSize',
    default: '`100000`',
    description:
      'Entries of the in-process memo of subject sets (the sets in each group, the sets holding each subject) that lets a check the check cache misses run one statement; dropped on every write, on every instance. `0` turns it off: such a check then walks the graph in one recursive statement.',
    parse: (raw, key) => int(raw, key, 100_000, 0, 10_000_000),
  }),
  RULES_FILES: variable({
    feeds: 'rules.files',
    default: 'unset',
    description:
      'Access-rule files (JSON/YAML arrays) and directories, comma-separated; watched. A file that does not load keeps its last good rules and is reported in the log and by readiness (503 until it first loads). See [decisions.md](decisions.md#rules).',
    parse: (raw) => list(raw).map((path) => resolve(path)),
  }),
  RULES_MATCHING_STRATEGY: variable({
    feeds: 'rules.matchingStrategy',
    default: '`regexp`',
    description:
      'How `match.url` is read: `regexp` (`<...>` holds a linear-time regular expression; capture groups go to templates) or `glob` (`<...>` holds a glob without separators).',
    parse: (raw, key) => oneOf(raw, key, ['regexp', 'glob'] as const, 'regexp'),
  }),
  IDENTITY_SCHEMAS: variable({
    feeds: 'identities.schemas',
    default: 'built-in `default` schema',
    description:
      'Identity schemas as a JSON list of `{"id", "url"}` (`url`: `file://…`, `base64://…` or inline JSON), or a list of mappings in the config file. When set it is the whole list. A schema that does not compile stops the boot. See [identities.md](identities.md).',
    parse: (raw, key) => identitySchemas(raw, key),
  }),
  IDENTITY_DEFAULT_SCHEMA_ID: variable({
    feeds: 'identities.defaultSchemaId',
    default: '`default`, else the first schema',
    description: 'The schema used when an identity names none.',
    parse: (raw) => raw,
  }),
  IDENTITY_ARGON2_MEMORY_KIB: variable({
    feeds: 'identities.argon2.memoryKib',
    default: '`19456`',
    description: 'argon2id memory (KiB) for passwords imported in clear; the OWASP minimum is also the lowest value accepted.',
    // OWASP's minimum for argon2id: 19 MiB, 2 passes, 1 lane.
    parse: (raw, key) => int(raw, key, 19_456, 19_456, 4_194_304),
  }),
  IDENTITY_ARGON2_ITERATIONS: variable({
    feeds: 'identities.argon2.iterations',
    default: '`2`',
    description: 'argon2id iterations.',
    parse: (raw, key) => int(raw, key, 2, 2, 100),
  }),
  IDENTITY_ARGON2_PARALLELISM: variable({
    feeds: 'identities.argon2.parallelism',
    default: '`1`',
    description: 'argon2id lanes.',
    parse: (raw, key) => int(raw, key, 1, 1, 16),
  }),
  IDENTITY_HASHING_CONCURRENCY: variable({
    feeds: 'identities.hashingConcurrency',
    default: 'cores, at most `UV_THREADPOOL_SIZE` − 1',
    description:
      "Password hashes and verifications (argon2id, bcrypt) running at once; more wait their turn. The hashers run on libuv's thread pool, which token signing shares: the default keeps one pool thread free. See [identities.md](identities.md#hashing).",
    parse: (raw, key, _config, env) => int(raw, key, defaultHashingConcurrency(env['UV_THREADPOOL_SIZE']), 1, 1024),
  }),
  COOKIE_SECURE: variable({
    feeds: 'cookies.secure',
    default: '`true` when `ISSUER_URL` is https',
    description: "Mark the service's cookies (login/consent CSRF, remembered login session, self-service session) `Secure`.",
    parse: (raw, key, config) => bool(raw, key, config.urls.issuer.startsWith('https:')),
  }),
  COOKIE_SAME_SITE: variable({
    feeds: 'cookies.sameSite',
    default: '`lax`',
    description: '`lax`, `strict` or `none` (`none` needs `COOKIE_SECURE=true` in browsers).',
    parse: (raw, key) => oneOf(raw, key, ['lax', 'strict', 'none'] as const, 'lax'),
  }),
  URLS_LOGIN: variable({
    feeds: 'oauth2.urls.login',
    default: '`<issuer>/ui/oauth2/login`',
    description:
      'The login app: the browser is sent here with `login_challenge`. The default is the built-in page ([ui.md](ui.md)); another URL switches it off.',
    parse: (raw, key, config) => httpUrl(raw, key, builtInPage(config, 'login')),
  }),
  URLS_CONSENT: variable({
    feeds: 'oauth2.urls.consent',
    default: '`<issuer>/ui/oauth2/consent`',
    description:
      'The consent app (`consent_challenge`). The default is the built-in page, which also makes discovery list `profile` and `email` and their claims.',
    parse: (raw, key, config) => httpUrl(raw, key, builtInPage(config, 'consent')),
  }),
  URLS_LOGOUT: variable({
    feeds: 'oauth2.urls.logout',
    default: '`<issuer>/ui/oauth2/logout`',
    description: 'The logout app (`logout_challenge`). The default is the built-in page.',
    parse: (raw, key, config) => httpUrl(raw, key, builtInPage(config, 'logout')),
  }),
  URLS_ERROR: variable({
    feeds: 'oauth2.urls.error',
    default: '`<issuer>/oauth2/fallbacks/error`',
    description:
      'Where OAuth2 errors that cannot go back to a client are shown. Unset, the authorization endpoint shows them in place with their 4xx status.',
    parse: (raw, key, config) => httpUrl(raw, key, `${config.urls.issuer}/oauth2/fallbacks/error`),
  }),
  URLS_POST_LOGOUT_REDIRECT: variable({
    feeds: 'oauth2.urls.postLogoutRedirect',
    default: '`<issuer>/oauth2/fallbacks/logout/callback`',
    description: 'Where a logout ends when the client named no (registered) `post_logout_redirect_uri`.',
    parse: (raw, key, config) => httpUrl(raw, key, `${config.urls.issuer}/oauth2/fallbacks/logout/callback`),
  }),
  TTL_ACCESS_TOKEN: variable({
    feeds: 'oauth2.ttl.accessToken',
    default: '`1h`',
    description: 'Access-token lifetime. Durations are seconds (`3600`) or `90s`, `30m`, `720h`.',
    parse: (raw, key) => duration(raw, key, 3600),
  }),
  TTL_REFRESH_TOKEN: variable({
    feeds: 'oauth2.ttl.refreshToken',
    default: '`720h`',
    description: 'Refresh-token lifetime.',
    parse: (raw, key) => duration(raw, key, 720 * 3600),
  }),
  TTL_ID_TOKEN: variable({
    feeds: 'oauth2.ttl.idToken',
    default: '`1h`',
    description: 'ID-token lifetime.',
    parse: (raw, key) => duration(raw, key, 3600),
  }),
  TTL_AUTH_CODE: variable({
    feeds: 'oauth2.ttl.authorizationCode',
    default: '`10m`',
    description: 'Authorization-code lifetime.',
    parse: (raw, key) => duration(raw, key, 600),
  }),
  TTL_LOGIN_CONSENT_REQUEST: variable({
    feeds: 'oauth2.ttl.loginConsentRequest',
    default: '`30m`',
    description: 'How long a login, consent or logout request (and its verifier) stays usable.',
    parse: (raw, key) => duration(raw, key, 1800),
  }),
  OAUTH2_ACCESS_TOKEN_STRATEGY: variable({
    feeds: 'oauth2.accessTokenStrategy',
    default: '`opaque`',
    description:
      '`opaque` (`<prefix>_<random>.<hmac>`, only the HMAC stored) or `jwt` (RFC 9068 `at+jwt`, signed by the `openid.jwt-access-token` key set).',
    parse: (raw, key) => oneOf(raw, key, ['opaque', 'jwt'] as const, 'opaque'),
  }),
  OAUTH2_ADMIN_SCOPE: variable({
    feeds: 'oauth2.adminScope',
    default: '`latchkey.admin`',
    description:
      'A client_credentials access token granted this scope is accepted by the admin API. Granted only to a client listing it literally (no wildcard reaches it).',
    parse: (raw) => raw ?? 'latchkey.admin',
  }),
  OAUTH2_SCOPE_STRATEGY: variable({
    feeds: 'oauth2.scopeStrategy',
    default: '`wildcard`',
    description: "How a requested scope is matched against a client's: `wildcard` (Hydra's default: `foo.*` allows `foo.bar`) or `exact`.",
    parse: (raw, key) => oneOf(raw, key, ['wildcard', 'exact'] as const, 'wildcard'),
  }),
  OAUTH2_CLOCK_SKEW: variable({
    feeds: 'oauth2.clockSkewSeconds',
    default: '`60s`',
    description: "How far a client's clock may be off for the `iat`, `nbf` and `exp` of its `private_key_jwt` assertions; `0` allows none.",
    parse: (raw, key) => duration(raw, key, 60, 0),
  }),
  OIDC_SUBJECT_TYPES: variable({
    feeds: 'oauth2.subjectTypes',
    default: '`public`',
    description: 'Comma-separated `public` and/or `pairwise`: the subject types clients may register.',
    parse: (raw, key) => subjectTypes(raw, key),
  }),
  OIDC_PAIRWISE_SALT: variable({
    feeds: 'oauth2.pairwiseSalt',
    default: 'derived from `SECRETS_SYSTEM`',
    description: 'Salt of pairwise subject identifiers. Changing it changes every pairwise `sub`.',
    sensitive: true,
    parse: (raw) => raw,
  }),
  OIDC_SUPPORTED_SCOPES: variable({
    feeds: 'oauth2.supportedScopes',
    default: '—',
    description: "Extra scopes listed in discovery's `scopes_supported` (after `openid`, `offline`, `offline_access`).",
    parse: (raw) => list(raw),
  }),
  OIDC_SUPPORTED_CLAIMS: variable({
    feeds: 'oauth2.supportedClaims',
    default: '—',
    description: "Extra claims listed in discovery's `claims_supported` (after `sub`).",
    parse: (raw) => list(raw),
  }),
  OIDC_CLAIMS_MAPPING: variable({
    feeds: 'oauth2.claimsMapping',
    default: '—',
    description:
      'JSON object of claim → dotted trait path laid over the default mapping (`{"given_name": "name.first"}`); `null` withholds a claim. Used by the built-in login and consent ([ui.md](ui.md#claims-from-the-identity)).',
    parse: (raw, key) => claimsMapping(raw, key),
  }),
  OAUTH2_JANITOR_INTERVAL: variable({
    feeds: 'oauth2.janitorIntervalSeconds',
    default: '`1h`',
    description:
      'How often expired tokens, codes and login/consent requests are deleted; `0` turns the periodic job off (`POST /oauth2/flush` still works).',
    parse: (raw, key) => duration(raw, key, 3600, 0),
  }),
  SELFSERVICE_FLOW_LIFESPAN: variable({
    feeds: 'selfService.flowLifespan',
    default: '`1h`',
    description: 'How long a self-service flow (login, registration, settings, recovery, verification) can be submitted.',
    parse: (raw, key) => duration(raw, key, 3600),
  }),
  SESSION_LIFESPAN: variable({
    feeds: 'selfService.sessionLifespan',
    default: '`24h`',
    description: 'Lifetime of a self-service session (and `Max-Age` of the `service_session` cookie), from the last authentication.',
    parse: (raw, key) => duration(raw, key, 24 * 3600),
  }),
  SELFSERVICE_PRIVILEGED_SESSION_MAX_AGE: variable({
    feeds: 'selfService.privilegedSessionMaxAge',
    default: '`15m`',
    description:
      'A session authenticated longer ago than this must log in again (`refresh=true`) before changing the password or login identifiers in a settings flow.',
    parse: (raw, key) => duration(raw, key, 15 * 60),
  }),
  SESSION_CACHE_TTL: variable({
    feeds: 'selfService.sessionCacheTtl',
    default: '`30s`',
    description:
      'How long `GET /sessions/whoami` may answer from its in-process cache (revocation, logout and identity changes invalidate it on every instance at once); `0` turns it off.',
    parse: (raw, key) => duration(raw, key, 30, 0),
  }),
  SELFSERVICE_DEFAULT_BROWSER_RETURN_URL: variable({
    feeds: 'selfService.defaultBrowserReturnUrl',
    default: '`<issuer>`',
    description: 'Where browsers go after login, registration and logout when no allowed `return_to` was given.',
    parse: (raw, key, config) => httpUrl(raw, key, `${config.urls.issuer}/`),
  }),
  SELFSERVICE_ALLOWED_RETURN_URLS: variable({
    feeds: 'selfService.allowedReturnUrls',
    default: '—',
    description:
      'Comma-separated URLs: a `return_to` must have the same scheme, host and port as one of them and a path at or below its path. The issuer, the default return URL and the UI URLs are always allowed.',
    parse: (raw, key) => urlList(raw, key),
  }),
  SELFSERVICE_LOGOUT_REQUIRE_TOKEN: variable({
    feeds: 'selfService.logoutRequiresToken',
    default: '`false`',
    description:
      "`true`: `GET /self-service/browser/flows/logout` ends a session only with that session's logout token (`?token=`, from `GET /self-service/logout/browser`), so a cross-site navigation cannot log anyone out.",
    parse: (raw, key) => bool(raw, key, false),
  }),
  URLS_SELFSERVICE_LOGIN_UI: variable({
    feeds: 'selfService.urls.login',
    default: '`<issuer>/ui/login`',
    description:
      'The login UI; browsers are sent here with `?flow=<id>`. The `/ui/*` defaults are the built-in pages ([ui.md](ui.md)); another URL switches that page off.',
    parse: (raw, key, config) => httpUrl(raw, key, `${config.urls.issuer}/ui/login`),
  }),
  URLS_SELFSERVICE_REGISTRATION_UI: variable({
    feeds: 'selfService.urls.registration',
    default: '`<issuer>/ui/registration`',
    description: 'The registration UI (`?flow=`).',
    parse: (raw, key, config) => httpUrl(raw, key, `${config.urls.issuer}/ui/registration`),
  }),
  URLS_SELFSERVICE_SETTINGS_UI: variable({
    feeds: 'selfService.urls.settings',
    default: '`<issuer>/ui/settings`',
    description: 'The settings UI (`?flow=`).',
    parse: (raw, key, config) => httpUrl(raw, key, `${config.urls.issuer}/ui/settings`),
  }),
  URLS_SELFSERVICE_RECOVERY_UI: variable({
    feeds: 'selfService.urls.recovery',
    default: '`<issuer>/ui/recovery`',
    description: 'The recovery UI (`?flow=`).',
    parse: (raw, key, config) => httpUrl(raw, key, `${config.urls.issuer}/ui/recovery`),
  }),
  URLS_SELFSERVICE_VERIFICATION_UI: variable({
    feeds: 'selfService.urls.verification',
    default: '`<issuer>/ui/verification`',
    description: 'The verification UI (`?flow=`).',
    parse: (raw, key, config) => httpUrl(raw, key, `${config.urls.issuer}/ui/verification`),
  }),
  URLS_SELFSERVICE_ERROR_UI: variable({
    feeds: 'selfService.urls.error',
    default: '`<issuer>/ui/error`',
    description:
      'Where browsers are sent with `?error=<id>` when a browser flow fails (`GET /self-service/errors?error=<id>` returns the error).',
    parse: (raw, key, config) => httpUrl(raw, key, `${config.urls.issuer}/ui/error`),
  }),
  SELFSERVICE_LOGIN_MAX_FAILURES_PER_IDENTIFIER: variable({
    feeds: 'selfService.loginThrottle.maxFailuresPerIdentifier',
    default: '`10`',
    description:
      'Failed password logins for one identifier within `SELFSERVICE_LOGIN_FAILURE_WINDOW` after which further attempts get 429 until the window ends; `0` turns it off.',
    parse: (raw, key) => int(raw, key, 10, 0, 1_000_000),
  }),
  SELFSERVICE_LOGIN_MAX_FAILURES_PER_IP: variable({
    feeds: 'selfService.loginThrottle.maxFailuresPerIp',
    default: '`100`',
    description: 'The same per client address (`TRUST_PROXY` decides whether `X-Forwarded-For` counts); `0` turns it off.',
    parse: (raw, key) => int(raw, key, 100, 0, 1_000_000),
  }),
  SELFSERVICE_LOGIN_FAILURE_WINDOW: variable({
    feeds: 'selfService.loginThrottle.windowSeconds',
    default: '`15m`',
    description: 'The fixed window of both failed-login counters.',
    parse: (raw, key) => duration(raw, key, 15 * 60),
  }),
  PASSWORD_MIN_LENGTH: variable({
    feeds: 'passwordPolicy.minLength',
    default: '`8`',
    description: 'Shortest password accepted at registration, in settings and after recovery, in Unicode characters (6–1024).',
    // Kratos' defaults (8 characters, similarity check on) plus a generous maximum: we hash with argon2id, not bcrypt.
    parse: (raw, key) => int(raw, key, 8, 6, 1024),
  }),
  PASSWORD_MAX_LENGTH: variable({
    feeds: 'passwordPolicy.maxLength',
    default: '`1024`',
    description:
      'Longest password accepted (64–4096). Passwords are hashed with argon2id, which has no 72-byte limit; the maximum only bounds hashing work.',
    parse: (raw, key, config) => atLeastMinLength(int(raw, key, 1024, 64, 4096), key, config),
  }),
  PASSWORD_IDENTIFIER_SIMILARITY_CHECK: variable({
    feeds: 'passwordPolicy.identifierSimilarityCheck',
    default: '`true`',
    description:
      "Refuse a password too close to a login identifier (Kratos' rule: Levenshtein distance below 5, or a common substring longer than half the password).",
    parse: (raw, key) => bool(raw, key, true),
  }),
  PASSWORD_HIBP_ENABLED: variable({
    feeds: 'passwordPolicy.haveIBeenPwned.enabled',
    default: '`false`',
    description:
      "Also refuse passwords found in data breaches by the Have I Been Pwned range API (k-anonymity: only 5 hex digits of the password's SHA-1 are sent). The offline list of common passwords is always checked.",
    parse: (raw, key) => bool(raw, key, false),
  }),
  PASSWORD_HIBP_URL: variable({
    feeds: 'passwordPolicy.haveIBeenPwned.url',
    default: '`https://api.pwnedpasswords.com`',
    description: 'Base URL of the range API (`<url>/range/<prefix>`), fetched through the outbound client (`OUTBOUND_*`).',
    parse: (raw, key) => httpUrl(raw, key, 'https://api.pwnedpasswords.com'),
  }),
  PASSWORD_HIBP_MAX_BREACHES: variable({
    feeds: 'passwordPolicy.haveIBeenPwned.maxBreaches',
    default: '`0`',
    description: 'A password seen in more breaches than this is refused.',
    parse: (raw, key) => int(raw, key, 0, 0, 1_000_000_000),
  }),
  PASSWORD_HIBP_IGNORE_NETWORK_ERRORS: variable({
    feeds: 'passwordPolicy.haveIBeenPwned.ignoreNetworkErrors',
    default: '`true`',
    description: 'When the range API cannot be reached: accept the password (`true`) or answer 503 (`false`).',
    parse: (raw, key) => bool(raw, key, true),
  }),
  UI_PRODUCT_NAME: variable({
    feeds: 'ui.productName',
    default: '`Latchkey`',
    description: 'The name shown at the top of the built-in pages.',
    parse: (raw) => raw ?? 'Latchkey',
  }),
  UI_LOGO_URL: variable({
    feeds: 'ui.logoUrl',
    default: '—',
    description: "An http(s) URL of a logo shown beside the name (allowed by the pages' CSP).",
    parse: (raw, key) => (raw === undefined ? undefined : httpUrl(raw, key, '')),
  }),
  UI_PRIMARY_COLOR: variable({
    feeds: 'ui.primaryColor',
    default: '`#3b5bdb`',
    description: 'Colour of buttons and links on the built-in pages (`#rgb` or `#rrggbb`).',
    parse: (raw, key) => hexColor(raw, key, '#3b5bdb'),
  }),
  UI_TEMPLATES_DIR: variable({
    feeds: 'ui.templatesDir',
    default: '—',
    description:
      'A folder whose `<name>.hbs` files replace the built-in page templates ([ui.md](ui.md#your-own-look)); a template that does not render stops the boot.',
    parse: (raw, key) => folder(raw, key),
  }),
  COURIER_SMTP_URL: variable({
    feeds: 'courier.smtp',
    default: '—',
    description:
      '`smtp://user:password@host:587/` (STARTTLS when offered) or `smtps://…:465/`; flags `?skip_ssl_verify=true`, `?disable_starttls=true`. Unset: e-mails stay queued in the database (one log line each, without the link) until an instance with SMTP sends them (`docs/courier.md`).',
    sensitive: true,
    parse: (raw, key) => smtpConnection(raw, key),
  }),
  COURIER_FROM_ADDRESS: variable({
    feeds: 'courier.fromAddress',
    default: '`no-reply@<issuer host>`',
    description: 'The sender address of every e-mail.',
    parse: (raw, key, config) => emailAddress(raw, key, `no-reply@${new URL(config.urls.issuer).hostname}`),
  }),
  COURIER_FROM_NAME: variable({
    feeds: 'courier.fromName',
    default: '—',
    description: "The sender's display name.",
    parse: (raw) => raw,
  }),
  COURIER_TEMPLATE_OVERRIDE_PATH: variable({
    feeds: 'courier.templateOverridePath',
    default: '—',
    description:
      'A folder with Handlebars templates replacing the built-in e-mails: `recovery/valid/`, `recovery/invalid/`, `verification/valid/`, `verification/invalid/`, each with any of `email.subject.hbs`, `email.body.hbs` (HTML), `email.body.plaintext.hbs`. See `docs/courier.md`.',
    parse: (raw) => raw,
  }),
  COURIER_DISPATCH_INTERVAL_MS: variable({
    feeds: 'courier.dispatchIntervalMs',
    default: '`1000`',
    description: 'How often the dispatcher looks for due e-mails (10 ms – 1 h).',
    parse: (raw, key) => int(raw, key, 1000, 10, 3_600_000),
  }),
  COURIER_MAX_ATTEMPTS: variable({
    feeds: 'courier.maxAttempts',
    default: '`5`',
    description: 'Delivery attempts before an e-mail is abandoned (`status = abandoned`, last error kept).',
    parse: (raw, key) => int(raw, key, 5, 1, 100),
  }),
  COURIER_RETRY_BASE_DELAY_MS: variable({
    feeds: 'courier.retryBaseDelayMs',
    default: '`5000`',
    description: 'Wait before the first retry; it doubles with every further failed attempt, up to one hour.',
    parse: (raw, key) => int(raw, key, 5000, 10, 3_600_000),
  }),
  RATE_LIMIT_PLAN: variable({
    feeds: 'rateLimit.plan',
    default: '`off`',
    description:
      'Project rate limits of the hosted plans: `off`, `developer`, `production`, `growth`, `enterprise`, or the legacy `essential` (= `production`) and `scale` (= `growth`). Inflight rules apply whatever the plan. See docs/rate-limits.md.',
    parse: (raw, key) => rateLimitPlan(raw, key),
  }),
  RATE_LIMIT_PROJECT: variable({
    feeds: 'rateLimit.project',
    default: '`default`',
    description:
      'The project id the counters and inflight keys are kept under (1–64 letters, digits, `.`, `_`, `-`); instances sharing a Redis and a project share its limits.',
    parse: (raw, key) => rateLimitProject(raw, key),
  }),
  RATE_LIMIT_ENVIRONMENT: variable({
    feeds: 'rateLimit.environment',
    default: '`production`',
    description: "`production`, `staging` or `development`: which of the plan's tables applies.",
    parse: (raw, key) => oneOf(raw, key, ['production', 'staging', 'development'] as const, 'production'),
  }),
  RATE_LIMIT_OVERRIDES: variable({
    feeds: 'rateLimit.overrides',
    default: '—',
    description:
      'Higher (or lower) limits arranged for some buckets: a JSON or YAML list of `{bucket, burst_rps, sustained_rpm}`, e.g. `[{"bucket": "/sessions/whoami", "burst_rps": 2000, "sustained_rpm": 60000}]`; a bucket not in the plan\'s table is added.',
    parse: (raw, key) => rateLimitOverrides(raw, key),
  }),
  RATE_LIMIT_TRUSTED_IPS: variable({
    feeds: 'rateLimit.trustedIps',
    default: '—',
    description:
      "Comma-separated CIDR blocks (or addresses) whose requests get the next plan up's limits, counted apart from the project's. The client address is the socket's, or `X-Forwarded-For`'s only with `TRUST_PROXY=true`.",
    parse: (raw, key) => cidrList(raw, key),
  }),
  RATE_LIMIT_INFLIGHT: variable({
    feeds: 'rateLimit.inflight',
    default: '`on`',
    description:
      'Inflight rules (concurrent writes to one resource, docs/rate-limits.md), whatever the plan: `on` as published, `report-only` (enforced rules only log and count), or `off`.',
    parse: (raw, key) => oneOf(raw, key, ['on', 'report-only', 'off'] as const, 'on'),
  }),
  WEBHOOKS_TOLERANCE: variable({
    feeds: 'webhooks.toleranceSeconds',
    default: '`5m`',
    description: "How far a directory-sync signature's timestamp may be from now, past or future (`docs/directory-sync.md`).",
    parse: (raw, key) => duration(raw, key, 300),
  }),
  WEBHOOKS_SECRET_GRACE: variable({
    feeds: 'webhooks.secretGraceSeconds',
    default: '`24h`',
    description: "How long a connection's previous secret keeps verifying after a rotation (`0`: not at all).",
    parse: (raw, key) => duration(raw, key, 24 * 3600, 0),
  }),
  WEBHOOKS_EVENT_RETENTION: variable({
    feeds: 'webhooks.eventRetentionSeconds',
    default: '`720h`',
    description: 'How long directory-sync event log entries are kept (30 days).',
    parse: (raw, key) => duration(raw, key, 30 * 24 * 3600),
  }),
  WEBHOOKS_JANITOR_INTERVAL: variable({
    feeds: 'webhooks.janitorIntervalSeconds',
    default: '`3600`',
    description: 'How often expired event log entries and replay records are deleted (`0` = never).',
    parse: (raw, key) => duration(raw, key, 3600, 0),
  }),
  WEBHOOKS_TRAITS_MAPPING: variable({
    feeds: 'webhooks.traitsMapping',
    default: '—',
    description:
      'JSON object: per identity schema id, trait path → path into the event\'s `data`, e.g. `{"employee": {"email": "email", "name.given": "first_name"}}`. Schemas not listed get the default mapping.',
    parse: (raw, key) => traitsMapping(raw, key),
  }),
  WEBHOOKS_VERIFY_ADDRESSES: variable({
    feeds: 'webhooks.verifyAddresses',
    default: '`true`',
    description: 'Store e-mail addresses asserted by a directory as verified.',
    parse: (raw, key) => bool(raw, key, true),
  }),
  WEBHOOKS_BODY_LIMIT: variable({
    feeds: 'webhooks.bodyLimitBytes',
    default: '`1mb`',
    description: 'Largest directory-sync webhook body; larger gets 413.',
    parse: (raw, key) => byteSize(raw, key, 1024 * 1024),
  }),
  WEBHOOKS_CONCURRENCY: variable({
    feeds: 'webhooks.concurrency',
    default: '`4`',
    description: 'Deliveries of one connection applied at once per instance (1–256); up to 256 more wait, beyond that 503.',
    parse: (raw, key) => int(raw, key, 4, 1, 256),
  }),
  DECISIONS_PIPELINE: variable({
    feeds: 'decisions.pipeline',
    default: '`{}`',
    description:
      "Global handler settings of the decision pipeline, Oathkeeper's `authenticators`, `authorizers`, `mutators`, `errors` sections (JSON, or a mapping in the config file); see [decisions.md](decisions.md).",
    parse: (raw, key) => pipelineSettings(raw, key),
  }),
  DECISIONS_TRUSTED_PROXIES: variable({
    feeds: 'decisions.trustedProxies',
    default: 'none',
    description: 'Comma-separated CIDRs whose `X-Forwarded-Method/-Proto/-Host/-Uri/-For` the decision API and the proxy honour.',
    parse: (raw, key) => cidrList(raw, key, []),
  }),
  DECISIONS_ALLOWED_PEERS: variable({
    feeds: 'decisions.allowedPeers',
    default: 'loopback and private ranges',
    description: 'Comma-separated CIDRs that may call `/decisions` on the admin listener.',
    parse: (raw, key) => cidrList(raw, key, PRIVATE_RANGES),
  }),
  PROXY_TIMEOUT_MS: variable({
    feeds: 'decisions.proxyTimeoutMs',
    default: '`30000`',
    description: "The proxy's deadline for an upstream to connect, answer and keep sending (100 ms – 10 min); past it, 502.",
    parse: (raw, key) => int(raw, key, 30_000, 100, 600_000),
  }),
} satisfies Record<string, ConfigVariable>;

export type ConfigKey = keyof typeof CONFIG_VARIABLES;
