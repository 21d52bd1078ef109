import { readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { extname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { sha256Hex } from '../common/crypto/digest.js';
import type {
  AppConfig,
  HandlerSetting,
  IdentitySchemaSource,
  LogLevel,
  NamespaceConfig,
  NodeEnv,
  PasswordPolicyConfig,
  RateLimitConfig,
  RateLimitOverride,
  RateLimitPlan,
  PipelineSettings,
  SmtpConnectionConfig,
} from './app-config.js';
import { ConfigError } from './config.error.js';

type Source = Readonly<Record<string, string | undefined>>;

/**
 * Every key the service reads, with its parser. Keys not listed here are ignored in the environment
 * (it holds much else) but refused in a config file (a typo there should stop the boot).
 */
const KNOWN_KEYS = [
  'NODE_ENV',
  'PUBLIC_PORT',
  'ADMIN_PORT',
  'PROXY_PORT',
  'HOST',
  'BODY_LIMIT',
  'TRUST_PROXY',
  'ISSUER_URL',
  'ADMIN_URL',
  'DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'DATABASE_CONNECT_TIMEOUT_MS',
  'DATABASE_STATEMENT_TIMEOUT_MS',
  'MIGRATE_ON_START',
  'CACHE_MAX_STALENESS',
  'DATA_DIR',
  'SECRETS_SYSTEM',
  'ADMIN_TOKENS',
  'ADMIN_AUTH',
  'LOG_LEVEL',
  'EXPOSE_INTERNAL_ERRORS',
  'REDIS_URL',
  'SHUTDOWN_DRAIN_DELAY_MS',
  'SHUTDOWN_TIMEOUT_MS',
  'OUTBOUND_ALLOW_PRIVATE_NETWORKS',
  'OUTBOUND_TIMEOUT_MS',
  'OUTBOUND_MAX_BYTES',
  'OUTBOUND_CA_FILE',
  'NAMESPACES',
  'TUPLES_MAX_DEPTH',
  'TUPLES_CACHE_SIZE',
  'RULES_FILES',
  'RULES_MATCHING_STRATEGY',
  'IDENTITY_SCHEMAS',
  'IDENTITY_DEFAULT_SCHEMA_ID',
  'IDENTITY_ARGON2_MEMORY_KIB',
  'IDENTITY_ARGON2_ITERATIONS',
  'IDENTITY_ARGON2_PARALLELISM',
  'IDENTITY_HASHING_CONCURRENCY',
  'COOKIE_SECURE',
  'COOKIE_SAME_SITE',
  'URLS_LOGIN',
  'URLS_CONSENT',
  'URLS_LOGOUT',
  'URLS_ERROR',
  'URLS_POST_LOGOUT_REDIRECT',
  'TTL_ACCESS_TOKEN',
  'TTL_REFRESH_TOKEN',
  'TTL_ID_TOKEN',
  'TTL_AUTH_CODE',
  'TTL_LOGIN_CONSENT_REQUEST',
  'OAUTH2_ACCESS_TOKEN_STRATEGY',
  'OAUTH2_ADMIN_SCOPE',
  'OAUTH2_SCOPE_STRATEGY',
  'OAUTH2_CLOCK_SKEW',
  'OIDC_SUBJECT_TYPES',
  'OIDC_PAIRWISE_SALT',
  'OIDC_SUPPORTED_SCOPES',
  'OIDC_SUPPORTED_CLAIMS',
  'OIDC_CLAIMS_MAPPING',
  'OAUTH2_JANITOR_INTERVAL',
  'SELFSERVICE_FLOW_LIFESPAN',
  'SESSION_LIFESPAN',
  'SESSION_CACHE_TTL',
  'SELFSERVICE_PRIVILEGED_SESSION_MAX_AGE',
  'SELFSERVICE_DEFAULT_BROWSER_RETURN_URL',
  'SELFSERVICE_ALLOWED_RETURN_URLS',
  'SELFSERVICE_LOGOUT_REQUIRE_TOKEN',
  'URLS_SELFSERVICE_LOGIN_UI',
  'URLS_SELFSERVICE_REGISTRATION_UI',
  'URLS_SELFSERVICE_SETTINGS_UI',
  'URLS_SELFSERVICE_RECOVERY_UI',
  'URLS_SELFSERVICE_VERIFICATION_UI',
  'URLS_SELFSERVICE_ERROR_UI',
  'SELFSERVICE_LOGIN_MAX_FAILURES_PER_IDENTIFIER',
  'SELFSERVICE_LOGIN_MAX_FAILURES_PER_IP',
  'SELFSERVICE_LOGIN_FAILURE_WINDOW',
  'PASSWORD_MIN_LENGTH',
  'PASSWORD_MAX_LENGTH',
  'PASSWORD_IDENTIFIER_SIMILARITY_CHECK',
  'PASSWORD_HIBP_ENABLED',
  'PASSWORD_HIBP_URL',
  'PASSWORD_HIBP_MAX_BREACHES',
  'PASSWORD_HIBP_IGNORE_NETWORK_ERRORS',
  'COURIER_SMTP_URL',
  'COURIER_FROM_ADDRESS',
  'COURIER_FROM_NAME',
  'COURIER_TEMPLATE_OVERRIDE_PATH',
  'COURIER_DISPATCH_INTERVAL_MS',
  'COURIER_MAX_ATTEMPTS',
  'COURIER_RETRY_BASE_DELAY_MS',
  'UI_PRODUCT_NAME',
  'UI_LOGO_URL',
  'UI_PRIMARY_COLOR',
  'UI_TEMPLATES_DIR',
  'RATE_LIMIT_PLAN',
  'RATE_LIMIT_ENVIRONMENT',
  'RATE_LIMIT_PROJECT',
  'RATE_LIMIT_OVERRIDES',
  'RATE_LIMIT_TRUSTED_IPS',
  'RATE_LIMIT_INFLIGHT',
  'WEBHOOKS_TOLERANCE',
  'WEBHOOKS_SECRET_GRACE',
  'WEBHOOKS_EVENT_RETENTION',
  'WEBHOOKS_JANITOR_INTERVAL',
  'WEBHOOKS_TRAITS_MAPPING',
  'WEBHOOKS_VERIFY_ADDRESSES',
  'WEBHOOKS_BODY_LIMIT',
  'WEBHOOKS_CONCURRENCY',
  'DECISIONS_PIPELINE',
  'DECISIONS_TRUSTED_PROXIES',
  'DECISIONS_ALLOWED_PEERS',
  'PROXY_TIMEOUT_MS',
] as const;
type Key = (typeof KNOWN_KEYS)[number];

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const NODE_ENVS: readonly NodeEnv[] = ['development', 'production', 'test'];

/**
 * Builds the configuration from an environment (usually `process.env`) and the optional file it names
 * in `CONFIG_FILE`. The environment wins over the file. Throws `ConfigError` naming the first bad key.
 */
export function loadConfig(env: Source, version: string): AppConfig {
  const merged = { ...readConfigFile(env['CONFIG_FILE']), ...pickKnown(env) };
  const read = (key: Key): string | undefined => {
    const value = merged[key];
    return value === undefined || value === '' ? undefined : value;
  };

  const nodeEnv = oneOf(read, 'NODE_ENV', NODE_ENVS, 'development');
  const publicPort = port(read, 'PUBLIC_PORT', 4444);
  const adminPort = port(read, 'ADMIN_PORT', 4445);
  const proxyPort = read('PROXY_PORT') === undefined ? undefined : port(read, 'PROXY_PORT', 4455);
  const host = read('HOST') ?? '127.0.0.1';
  const issuer = httpUrl(read, 'ISSUER_URL', `http://${host === '0.0.0.0' ? 'localhost' : host}:${publicPort}`);
  const system = list(read, 'SECRETS_SYSTEM');
  for (const secret of system) {
    if (secret.length < 16) throw new ConfigError('SECRETS_SYSTEM', 'every secret must be at least 16 characters long');
  }
  const adminScope = read('OAUTH2_ADMIN_SCOPE') ?? 'latchkey.admin';
  const tokens = list(read, 'ADMIN_TOKENS');
  for (const token of tokens) {
    if (token.length < 16) throw new ConfigError('ADMIN_TOKENS', 'every token must be at least 16 characters long');
  }

  const builtInLogin = `${issuer}/ui/oauth2/login`;
  const builtInConsent = `${issuer}/ui/oauth2/consent`;
  const builtInLogout = `${issuer}/ui/oauth2/logout`;

  return {
    env: nodeEnv,
    version,
    http: {
      host,
      publicPort,
      adminPort,
      proxyPort,
      bodyLimitBytes: byteSize(read, 'BODY_LIMIT', 1024 * 1024),
      trustProxy: bool(read, 'TRUST_PROXY', false),
    },
    urls: {
      issuer,
      issuerIdentifier: issuerIdentifier(read, issuer),
      admin: httpUrl(read, 'ADMIN_URL', `http://${host === '0.0.0.0' ? 'localhost' : host}:${adminPort}`),
    },
    database: {
      url: postgresUrl(read, 'DATABASE_URL'),
      dataDir: resolve(read('DATA_DIR') ?? '.data'),
      poolSize: int(read, 'DATABASE_POOL_SIZE', 10, 1, 1000),
      connectTimeoutMs: int(read, 'DATABASE_CONNECT_TIMEOUT_MS', 5000, 100, 600_000),
      statementTimeoutMs: int(read, 'DATABASE_STATEMENT_TIMEOUT_MS', 30_000, 0, 3_600_000),
      migrateOnStart: bool(read, 'MIGRATE_ON_START', true),
      cacheMaxStalenessSeconds: duration(read, 'CACHE_MAX_STALENESS', 10),
    },
    secrets: { system },
    admin: { auth: oneOf(read, 'ADMIN_AUTH', ['on', 'off'] as const, 'on'), tokenDigests: tokens.map(sha256Hex) },
    log: { level: oneOf(read, 'LOG_LEVEL', LOG_LEVELS, 'info') },
    errors: { exposeInternal: bool(read, 'EXPOSE_INTERNAL_ERRORS', false) },
    redis: { url: redisUrl(read, 'REDIS_URL') },
    shutdown: {
      drainDelayMs: int(read, 'SHUTDOWN_DRAIN_DELAY_MS', defaultDrainDelayMs(nodeEnv), 0, 600_000),
      timeoutMs: int(read, 'SHUTDOWN_TIMEOUT_MS', 25_000, 0, 600_000),
    },
    outbound: {
      allowPrivateNetworks: bool(read, 'OUTBOUND_ALLOW_PRIVATE_NETWORKS', false),
      timeoutMs: int(read, 'OUTBOUND_TIMEOUT_MS', 5000, 100, 120_000),
      maxBytes: byteSize(read, 'OUTBOUND_MAX_BYTES', 5 * 1024 * 1024),
      caFile: read('OUTBOUND_CA_FILE'),
    },
    tuples: {
      namespaces: namespaces(read, 'NAMESPACES'),
      maxDepth: int(read, 'TUPLES_MAX_DEPTH', 5, 1, 100),
      cacheSize: int(read, 'TUPLES_CACHE_SIZE', 100_000, 0, 10_000_000),
    },
    rules: {
      files: list(read, 'RULES_FILES').map((path) => resolve(path)),
      matchingStrategy: oneOf(read, 'RULES_MATCHING_STRATEGY', ['regexp', 'glob'] as const, 'regexp'),
    },
    identities: {
      schemas: identitySchemas(read, 'IDENTITY_SCHEMAS'),
      defaultSchemaId: read('IDENTITY_DEFAULT_SCHEMA_ID'),
      argon2: {
        // OWASP's minimum for argon2id: 19 MiB, 2 passes, 1 lane.
        memoryKib: int(read, 'IDENTITY_ARGON2_MEMORY_KIB', 19_456, 19_456, 4_194_304),
        iterations: int(read, 'IDENTITY_ARGON2_ITERATIONS', 2, 2, 100),
        parallelism: int(read, 'IDENTITY_ARGON2_PARALLELISM', 1, 1, 16),
      },
      hashingConcurrency: int(read, 'IDENTITY_HASHING_CONCURRENCY', defaultHashingConcurrency(env['UV_THREADPOOL_SIZE']), 1, 1024),
    },
    cookies: {
      secure: bool(read, 'COOKIE_SECURE', issuer.startsWith('https:')),
      sameSite: oneOf(read, 'COOKIE_SAME_SITE', ['lax', 'strict', 'none'] as const, 'lax'),
    },
    oauth2: {
      urls: {
        // The built-in pages of the ui context; setting a URL to an app of one's own switches its page off.
        login: httpUrl(read, 'URLS_LOGIN', builtInLogin),
        consent: httpUrl(read, 'URLS_CONSENT', builtInConsent),
        logout: httpUrl(read, 'URLS_LOGOUT', builtInLogout),
        error: httpUrl(read, 'URLS_ERROR', `${issuer}/oauth2/fallbacks/error`),
        postLogoutRedirect: httpUrl(read, 'URLS_POST_LOGOUT_REDIRECT', `${issuer}/oauth2/fallbacks/logout/callback`),
      },
      ttl: {
        accessToken: duration(read, 'TTL_ACCESS_TOKEN', 3600),
        refreshToken: duration(read, 'TTL_REFRESH_TOKEN', 720 * 3600),
        idToken: duration(read, 'TTL_ID_TOKEN', 3600),
        authorizationCode: duration(read, 'TTL_AUTH_CODE', 600),
        loginConsentRequest: duration(read, 'TTL_LOGIN_CONSENT_REQUEST', 1800),
      },
      accessTokenStrategy: oneOf(read, 'OAUTH2_ACCESS_TOKEN_STRATEGY', ['opaque', 'jwt'] as const, 'opaque'),
      adminScope,
      scopeStrategy: oneOf(read, 'OAUTH2_SCOPE_STRATEGY', ['wildcard', 'exact'] as const, 'wildcard'),
      privilegedScopes: [adminScope],
      clockSkewSeconds: duration(read, 'OAUTH2_CLOCK_SKEW', 60, 0),
      subjectTypes: subjectTypes(read, 'OIDC_SUBJECT_TYPES'),
      pairwiseSalt: read('OIDC_PAIRWISE_SALT'),
      supportedScopes: list(read, 'OIDC_SUPPORTED_SCOPES'),
      supportedClaims: list(read, 'OIDC_SUPPORTED_CLAIMS'),
      claimsMapping: claimsMapping(read, 'OIDC_CLAIMS_MAPPING'),
      builtInPages: {
        login: httpUrl(read, 'URLS_LOGIN', builtInLogin) === builtInLogin,
        consent: httpUrl(read, 'URLS_CONSENT', builtInConsent) === builtInConsent,
        logout: httpUrl(read, 'URLS_LOGOUT', builtInLogout) === builtInLogout,
      },
      janitorIntervalSeconds: read('OAUTH2_JANITOR_INTERVAL') === undefined ? 3600 : duration(read, 'OAUTH2_JANITOR_INTERVAL', 3600, 0),
    },
    selfService: {
      flowLifespan: duration(read, 'SELFSERVICE_FLOW_LIFESPAN', 3600),
      sessionLifespan: duration(read, 'SESSION_LIFESPAN', 24 * 3600),
      privilegedSessionMaxAge: duration(read, 'SELFSERVICE_PRIVILEGED_SESSION_MAX_AGE', 15 * 60),
      sessionCacheTtl: duration(read, 'SESSION_CACHE_TTL', 30, 0),
      defaultBrowserReturnUrl: httpUrl(read, 'SELFSERVICE_DEFAULT_BROWSER_RETURN_URL', `${issuer}/`),
      allowedReturnUrls: urlList(read, 'SELFSERVICE_ALLOWED_RETURN_URLS'),
      logoutRequiresToken: bool(read, 'SELFSERVICE_LOGOUT_REQUIRE_TOKEN', false),
      // The built-in pages of the ui context.
      urls: {
        login: httpUrl(read, 'URLS_SELFSERVICE_LOGIN_UI', `${issuer}/ui/login`),
        registration: httpUrl(read, 'URLS_SELFSERVICE_REGISTRATION_UI', `${issuer}/ui/registration`),
        settings: httpUrl(read, 'URLS_SELFSERVICE_SETTINGS_UI', `${issuer}/ui/settings`),
        recovery: httpUrl(read, 'URLS_SELFSERVICE_RECOVERY_UI', `${issuer}/ui/recovery`),
        verification: httpUrl(read, 'URLS_SELFSERVICE_VERIFICATION_UI', `${issuer}/ui/verification`),
        error: httpUrl(read, 'URLS_SELFSERVICE_ERROR_UI', `${issuer}/ui/error`),
      },
      loginThrottle: {
        maxFailuresPerIdentifier: int(read, 'SELFSERVICE_LOGIN_MAX_FAILURES_PER_IDENTIFIER', 10, 0, 1_000_000),
        maxFailuresPerIp: int(read, 'SELFSERVICE_LOGIN_MAX_FAILURES_PER_IP', 100, 0, 1_000_000),
        windowSeconds: duration(read, 'SELFSERVICE_LOGIN_FAILURE_WINDOW', 15 * 60),
      },
    },
    passwordPolicy: passwordPolicy(read),
    ui: {
      productName: read('UI_PRODUCT_NAME') ?? 'Latchkey',
      logoUrl: read('UI_LOGO_URL') === undefined ? undefined : httpUrl(read, 'UI_LOGO_URL', ''),
      primaryColor: hexColor(read, 'UI_PRIMARY_COLOR', '#3b5bdb'),
      templatesDir: folder(read, 'UI_TEMPLATES_DIR'),
    },
    courier: {
      smtp: smtpConnection(read, 'COURIER_SMTP_URL'),
      fromAddress: emailAddress(read, 'COURIER_FROM_ADDRESS', `no-reply@${new URL(issuer).hostname}`),
      fromName: read('COURIER_FROM_NAME'),
      templateOverridePath: read('COURIER_TEMPLATE_OVERRIDE_PATH'),
      dispatchIntervalMs: int(read, 'COURIER_DISPATCH_INTERVAL_MS', 1000, 10, 3_600_000),
      maxAttempts: int(read, 'COURIER_MAX_ATTEMPTS', 5, 1, 100),
      retryBaseDelayMs: int(read, 'COURIER_RETRY_BASE_DELAY_MS', 5000, 10, 3_600_000),
    },
    rateLimit: rateLimit(read),
    webhooks: {
      toleranceSeconds: duration(read, 'WEBHOOKS_TOLERANCE', 300),
      secretGraceSeconds: duration(read, 'WEBHOOKS_SECRET_GRACE', 24 * 3600, 0),
      eventRetentionSeconds: duration(read, 'WEBHOOKS_EVENT_RETENTION', 30 * 24 * 3600),
      janitorIntervalSeconds: read('WEBHOOKS_JANITOR_INTERVAL') === undefined ? 3600 : duration(read, 'WEBHOOKS_JANITOR_INTERVAL', 3600, 0),
      traitsMapping: traitsMapping(read, 'WEBHOOKS_TRAITS_MAPPING'),
      verifyAddresses: bool(read, 'WEBHOOKS_VERIFY_ADDRESSES', true),
      bodyLimitBytes: byteSize(read, 'WEBHOOKS_BODY_LIMIT', 1024 * 1024),
      concurrency: int(read, 'WEBHOOKS_CONCURRENCY', 4, 1, 256),
    },
    decisions: {
      pipeline: pipelineSettings(read, 'DECISIONS_PIPELINE'),
      trustedProxies: cidrList(read, 'DECISIONS_TRUSTED_PROXIES', []),
      allowedPeers: cidrList(read, 'DECISIONS_ALLOWED_PEERS', PRIVATE_RANGES),
      proxyTimeoutMs: int(read, 'PROXY_TIMEOUT_MS', 30_000, 100, 600_000),
    },
  };
}

/** The legacy plan names of the hosted offer, kept as aliases of the plans whose limits they share. */
const RATE_LIMIT_PLANS: Readonly<Record<string, RateLimitPlan>> = {
  off: 'off',
  developer: 'developer',
  production: 'production',
  essential: 'production',
  growth: 'growth',
  scale: 'growth',
  enterprise: 'enterprise',
};
const RATE_LIMIT_PROJECT = /^[A-Za-z0-9._-]{1,64}$/;
/** An optional HTTP method, then `*` or an absolute path whose segments may be `*` (one) or a final `**` (any depth). */
const RATE_LIMIT_BUCKET = /^(?:[A-Z]{3,7} )?(?:\*|\/|\/\*\*|(?:\/(?:\*|[^/*\s]+))+(?:\/\*\*)?)$/;
const OVERRIDES_EXAMPLE = '[{"bucket": "/sessions/whoami", "burst_rps": 2000, "sustained_rpm": 60000}]';

function rateLimit(read: Reader): RateLimitConfig {
  const rawPlan = read('RATE_LIMIT_PLAN') ?? 'off';
  const plan = RATE_LIMIT_PLANS[rawPlan];
  if (plan === undefined)
    throw new ConfigError('RATE_LIMIT_PLAN', `must be one of ${Object.keys(RATE_LIMIT_PLANS).join(', ')}, got "${rawPlan}"`);
  const project = read('RATE_LIMIT_PROJECT') ?? 'default';
  if (!RATE_LIMIT_PROJECT.test(project)) throw new ConfigError('RATE_LIMIT_PROJECT', 'must be 1 to 64 letters, digits or any of ._-');
  return {
    plan,
    environment: oneOf(read, 'RATE_LIMIT_ENVIRONMENT', ['production', 'staging', 'development'] as const, 'production'),
    project,
    overrides: rateLimitOverrides(read, 'RATE_LIMIT_OVERRIDES'),
    trustedIps: cidrList(read, 'RATE_LIMIT_TRUSTED_IPS'),
    inflight: oneOf(read, 'RATE_LIMIT_INFLIGHT', ['on', 'report-only', 'off'] as const, 'on'),
  };
}

/** `RATE_LIMIT_OVERRIDES`: a JSON or YAML list of `{bucket, burst_rps, sustained_rpm}`, one entry per bucket. */
function rateLimitOverrides(read: Reader, key: Key): RateLimitOverride[] {
  const raw = read(key);
  if (raw === undefined) return [];
  let parsed: unknown;
  try {
    parsed = parseYaml(raw);
  } catch {
    throw new ConfigError(key, `must be a JSON or YAML list such as ${OVERRIDES_EXAMPLE}`);
  }
  const text = JSON.stringify(parsed ?? []);
  const buckets = new Set<string>();
  return jsonListOfObjects(() => text, key, OVERRIDES_EXAMPLE, ['bucket', 'burst_rps', 'sustained_rpm']).map((entry, index) => {
    const { bucket, burst_rps: burst, sustained_rpm: sustained } = entry;
    if (typeof bucket !== 'string' || !RATE_LIMIT_BUCKET.test(bucket)) {
      throw new ConfigError(
        key,
        `entry ${index}: bucket must be "*" or a path pattern such as "/sessions/whoami", "POST /admin/recovery/*" or "/scim/**"`,
      );
    }
    for (const [name, value] of [
      ['burst_rps', burst],
      ['sustained_rpm', sustained],
    ] as const) {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 1_000_000_000) {
        throw new ConfigError(key, `entry ${index} (${bucket}): ${name} must be a whole number between 1 and 1000000000`);
      }
    }
    if (buckets.has(bucket)) throw new ConfigError(key, `the bucket "${bucket}" is listed twice`);
    buckets.add(bucket);
    return { bucket, burstRps: burst as number, sustainedRpm: sustained as number };
  });
}

/** A comma-separated list of CIDR blocks (a bare address counts as a block of one); `fallback` when unset. */
function cidrList(read: Reader, key: Key, fallback: readonly string[] = []): string[] {
  if (read(key) === undefined) return [...fallback];
  return list(read, key).map((item) => {
    const [address = '', bits, extra] = item.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : -1;
    if (family === 0 || extra !== undefined || prefix < 0 || prefix > max) {
      throw new ConfigError(key, `"${item}" is not a CIDR block such as 10.0.0.0/8 or 2001:db8::/32`);
    }
    return `${address}/${prefix}`;
  });
}

/**
 * `WEBHOOKS_TRAITS_MAPPING`: per identity schema id, which directory user field fills which trait,
 * e.g. `{"employee": {"email": "email", "name.given": "first_name", "department": "raw.department"}}`.
 * Keys are dotted trait paths, values dotted paths into the event's `data`.
 */
function traitsMapping(read: Reader, key: Key): Record<string, Record<string, string>> {
  const raw = read(key);
  if (raw === undefined) return {};
  const example = '{"employee": {"email": "email", "name.given": "first_name"}}';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(key, `must be a JSON object such as ${example}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ConfigError(key, `must be a JSON object such as ${example}`);
  const DOTTED = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
  const mapping: Record<string, Record<string, string>> = {};
  for (const [schemaId, fields] of Object.entries(parsed)) {
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields))
      throw new ConfigError(key, `"${schemaId}" must map trait paths to data paths`);
    const entries = Object.entries(fields as Record<string, unknown>);
    for (const [trait, source] of entries) {
      if (!DOTTED.test(trait) || typeof source !== 'string' || !DOTTED.test(source)) {
        throw new ConfigError(key, `"${schemaId}": "${trait}" must map a dotted trait path to a dotted data path`);
      }
    }
    mapping[schemaId] = Object.fromEntries(entries) as Record<string, string>;
  }
  return mapping;
}

/**
 * Closing a listener resets the connections still waiting in its accept queue, and a load balancer
 * keeps sending until it sees readiness fail. In production the listeners keep accepting for 5 s
 * after readiness turns 503 (a few probe periods); elsewhere a quarter second, so that Ctrl-C stays
 * quick yet a request sent just before it is still answered.
 */
function defaultDrainDelayMs(nodeEnv: NodeEnv): number {
  return nodeEnv === 'production' ? 5000 : 250;
}

/** Loopback and private ranges: who may call `/decisions` unless DECISIONS_ALLOWED_PEERS says otherwise. */
const PRIVATE_RANGES = ['127.0.0.0/8', '::1/128', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'];

const PIPELINE_SECTIONS = ['authenticators', 'authorizers', 'mutators', 'errors'] as const;

/**
 * DECISIONS_PIPELINE: a JSON object (or a mapping in the config file) with Oathkeeper's sections,
 * each handler `{enabled?, config?}`; `errors` may also hold `fallback` (list of handler names) and
 * its handlers under `handlers`, as Oathkeeper nests them. Handler names are checked by the pipeline.
 */
function pipelineSettings(read: Reader, key: Key): PipelineSettings {
  const raw = read(key);
  let parsed: unknown = {};
  if (raw !== undefined) {
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new ConfigError(key, 'must be a JSON object such as {"authorizers":{"remote_json":{"enabled":true}}}');
    }
  }
  if (!isPlainObject(parsed)) throw new ConfigError(key, 'must be a JSON object');
  for (const section of Object.keys(parsed)) {
    if (!(PIPELINE_SECTIONS as readonly string[]).includes(section)) throw new ConfigError(key, `unknown section "${section}"`);
  }
  const errorsSection = parsed['errors'] ?? {};
  if (!isPlainObject(errorsSection)) throw new ConfigError(key, 'errors must be an object');
  const { fallback, handlers, ...flatErrors } = errorsSection;
  if (fallback !== undefined && !(Array.isArray(fallback) && fallback.every((name) => typeof name === 'string'))) {
    throw new ConfigError(key, 'errors.fallback must be a list of error handler names');
  }
  return {
    authenticators: handlerSettings(key, 'authenticators', parsed['authenticators']),
    authorizers: handlerSettings(key, 'authorizers', parsed['authorizers']),
    mutators: handlerSettings(key, 'mutators', parsed['mutators']),
    errors: { ...handlerSettings(key, 'errors', flatErrors), ...handlerSettings(key, 'errors.handlers', handlers) },
    errorFallback: (fallback as string[] | undefined) ?? ['json'],
  };
}

function handlerSettings(key: Key, section: string, value: unknown): Record<string, HandlerSetting> {
  if (value === undefined) return {};
  if (!isPlainObject(value)) throw new ConfigError(key, `${section} must be an object`);
  const settings: Record<string, HandlerSetting> = {};
  for (const [name, setting] of Object.entries(value)) {
    if (!isPlainObject(setting)) throw new ConfigError(key, `${section}.${name} must be an object with enabled and config`);
    const { enabled, config, ...rest } = setting;
    if (Object.keys(rest).length > 0) throw new ConfigError(key, `${section}.${name} has unknown members: ${Object.keys(rest).join(', ')}`);
    if (enabled !== undefined && typeof enabled !== 'boolean')
      throw new ConfigError(key, `${section}.${name}.enabled must be true or false`);
    if (config !== undefined && !isPlainObject(config)) throw new ConfigError(key, `${section}.${name}.config must be an object`);
    settings[name] = { ...(enabled === undefined ? {} : { enabled }), ...(config === undefined ? {} : { config }) };
  }
  return settings;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Kratos' defaults (8 characters, similarity check on) plus a generous maximum: we hash with argon2id, not bcrypt. */
function passwordPolicy(read: Reader): PasswordPolicyConfig {
  const minLength = int(read, 'PASSWORD_MIN_LENGTH', 8, 6, 1024);
  const maxLength = int(read, 'PASSWORD_MAX_LENGTH', 1024, 64, 4096);
  if (maxLength < minLength) throw new ConfigError('PASSWORD_MAX_LENGTH', `must be at least PASSWORD_MIN_LENGTH (${minLength})`);
  return {
    minLength,
    maxLength,
    identifierSimilarityCheck: bool(read, 'PASSWORD_IDENTIFIER_SIMILARITY_CHECK', true),
    haveIBeenPwned: {
      enabled: bool(read, 'PASSWORD_HIBP_ENABLED', false),
      url: httpUrl(read, 'PASSWORD_HIBP_URL', 'https://api.pwnedpasswords.com'),
      maxBreaches: int(read, 'PASSWORD_HIBP_MAX_BREACHES', 0, 0, 1_000_000_000),
      ignoreNetworkErrors: bool(read, 'PASSWORD_HIBP_IGNORE_NETWORK_ERRORS', true),
    },
  };
}

/** `smtp://user:pass@host:587/` or `smtps://…:465/`, with Kratos' `skip_ssl_verify` and `disable_starttls` query flags. */
function smtpConnection(read: Reader, key: Key): SmtpConnectionConfig | undefined {
  const raw = read(key);
  if (raw === undefined) return undefined;
  const url = parseUrl(key, raw);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new ConfigError(key, 'must be an smtp:// or smtps:// URL');
  if (url.hostname === '') throw new ConfigError(key, 'must name a host');
  const flags = new Map<string, boolean>();
  for (const [name, value] of url.searchParams) {
    if (name !== 'skip_ssl_verify' && name !== 'disable_starttls') throw new ConfigError(key, `unknown query parameter "${name}"`);
    if (value !== 'true' && value !== 'false') throw new ConfigError(key, `${name} must be true or false`);
    flags.set(name, value === 'true');
  }
  const secure = url.protocol === 'smtps:';
  return {
    secure,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? (secure ? 465 : 587) : Number(url.port),
    username: url.username === '' ? undefined : decodeURIComponent(url.username),
    password: url.password === '' ? undefined : decodeURIComponent(url.password),
    skipTlsVerify: flags.get('skip_ssl_verify') ?? false,
    disableStartTls: flags.get('disable_starttls') ?? false,
  };
}

/** A bare address (`name@host`), as the envelope sender needs it; the display name is COURIER_FROM_NAME. */
function emailAddress(read: Reader, key: Key, fallback: string): string {
  const value = read(key) ?? fallback;
  if (!/^[^\s@<>",]+@[^\s@<>",]+$/.test(value))
    throw new ConfigError(key, `must be an e-mail address such as no-reply@example.com, got "${value}"`);
  return value;
}

function pickKnown(env: Source): Record<string, string | undefined> {
  const picked: Record<string, string | undefined> = {};
  for (const key of KNOWN_KEYS) if (env[key] !== undefined) picked[key] = env[key];
  return picked;
}

function readConfigFile(path: string | undefined): Record<string, string> {
  if (path === undefined || path === '') return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError('CONFIG_FILE', `cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = extname(path) === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError(
      'CONFIG_FILE',
      `${path} is not valid ${extname(path) === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message}`,
    );
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError('CONFIG_FILE', `${path} must hold a mapping of setting names to values`);
  }
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!(KNOWN_KEYS as readonly string[]).includes(key)) throw new ConfigError(key, `unknown setting in ${path}`);
    // A list of mappings (NAMESPACES) is kept as the JSON its parser reads; a list of scalars joins with commas.
    if (Array.isArray(value) && value.some((item) => item !== null && typeof item === 'object')) values[key] = JSON.stringify(value);
    else if (Array.isArray(value)) values[key] = value.map(String).join(',');
    // DECISIONS_PIPELINE is a mapping; it is kept as the JSON its parser reads.
    else if (key === 'DECISIONS_PIPELINE' && value !== null && typeof value === 'object') values[key] = JSON.stringify(value);
    else if (value !== null && typeof value === 'object') throw new ConfigError(key, 'must be a scalar or a list');
    else if (value !== null && value !== undefined) values[key] = String(value);
  }
  return values;
}

type Reader = (key: Key) => string | undefined;

/**
 * As many as the machine has cores, and one thread less than libuv's pool (UV_THREADPOOL_SIZE, 4
 * unless set; libuv's bounds 1–1024), at least 1. Hashes run on that pool, and jose's signing, DNS
 * lookups and file reads need a thread free while logins hash; hashes are CPU-bound, so more at once
 * than cores only share the cores (docs/identities.md, "Hashing").
 */
function defaultHashingConcurrency(poolSize: string | undefined): number {
  const size = poolSize !== undefined && /^\d+$/.test(poolSize) ? Math.min(Math.max(Number(poolSize), 1), 1024) : 4;
  return Math.max(Math.min(size - 1, availableParallelism()), 1);
}

function int(read: Reader, key: Key, fallback: number, min: number, max: number): number {
  const raw = read(key);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(key, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(key, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function port(read: Reader, key: Key, fallback: number): number {
  return int(read, key, fallback, 0, 65535);
}

function bool(read: Reader, key: Key, fallback: boolean): boolean {
  const raw = read(key)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(key, `must be true or false, got "${raw}"`);
}

function oneOf<T extends string>(read: Reader, key: Key, allowed: readonly T[], fallback: T): T {
  const raw = read(key);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(key, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function list(read: Reader, key: Key): string[] {
  return (read(key) ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, k: 1024, mb: 1024 ** 2, m: 1024 ** 2 };

function byteSize(read: Reader, key: Key, fallback: number): number {
  const raw = read(key);
  if (raw === undefined) return fallback;
  const match = /^(\d+)\s*([a-z]*)$/i.exec(raw.trim());
  const unit = SIZE_UNITS[match?.[2]?.toLowerCase() ?? 'x'];
  if (match === null || unit === undefined) throw new ConfigError(key, `must be a size such as 1048576, 512kb or 1mb, got "${raw}"`);
  const value = Number(match[1]) * unit;
  if (value < 1024) throw new ConfigError(key, 'must be at least 1kb');
  return value;
}

const DURATION_UNITS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600 };

/** Seconds, written as `90`, `90s`, `30m` or `720h` (Hydra's `ttl.*` style). */
function duration(read: Reader, key: Key, fallback: number, min = 1): number {
  const raw = read(key);
  if (raw === undefined) return fallback;
  const match = /^(\d+)([smh]?)$/.exec(raw.trim());
  const unit = DURATION_UNITS[match?.[2] ?? 'x'];
  if (match === null || unit === undefined) throw new ConfigError(key, `must be a duration such as 3600, 90s, 30m or 720h, got "${raw}"`);
  const seconds = Number(match[1]) * unit;
  if (seconds < min || seconds > 10 * 365 * 86_400) throw new ConfigError(key, `must be between ${min}s and 10 years, got "${raw}"`);
  return seconds;
}

function subjectTypes(read: Reader, key: Key): ('public' | 'pairwise')[] {
  const types = list(read, key);
  if (types.length === 0) return ['public'];
  for (const type of types) {
    if (type !== 'public' && type !== 'pairwise') throw new ConfigError(key, `must list public and/or pairwise, got "${type}"`);
  }
  return [...new Set(types as ('public' | 'pairwise')[])];
}

function parseUrl(key: Key, raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new ConfigError(key, 'must be an absolute URL');
  }
}

function httpUrl(read: Reader, key: Key, fallback: string): string {
  const raw = read(key) ?? fallback;
  const url = parseUrl(key, raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(key, 'must be an http or https URL');
  if (url.search !== '' || url.hash !== '') throw new ConfigError(key, 'must not carry a query or a fragment');
  return url.href.replace(/\/+$/, '');
}

/** ISSUER_URL as written (already checked by `httpUrl`), or the default base URL when unset. */
function issuerIdentifier(read: Reader, issuer: string): string {
  return read('ISSUER_URL')?.trim() ?? issuer;
}

/** A comma-separated list of http(s) URLs (no query or fragment), e.g. SELFSERVICE_ALLOWED_RETURN_URLS. */
function urlList(read: Reader, key: Key): string[] {
  return list(read, key).map((raw) => {
    const url = parseUrl(key, raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(key, `"${raw}" must be an http or https URL`);
    if (url.search !== '' || url.hash !== '') throw new ConfigError(key, `"${raw}" must not carry a query or a fragment`);
    return url.href;
  });
}

function postgresUrl(read: Reader, key: Key): string | undefined {
  const raw = read(key);
  if (raw === undefined) return undefined;
  const url = parseUrl(key, raw);
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(key, 'must be a postgres:// or postgresql:// URL');
  }
  return raw;
}

function redisUrl(read: Reader, key: Key): string | undefined {
  const raw = read(key);
  if (raw === undefined) return undefined;
  const url = parseUrl(key, raw);
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new ConfigError(key, 'must be a redis:// or rediss:// URL');
  return raw;
}

/** A namespace name can be written in a subject set (`namespace:object#relation`), so it holds none of `:#@`. */
const NAMESPACE_NAME = /^[^\s:#@\p{Cc}]{1,64}$/u;
const MAX_NAMESPACE_ID = 2_147_483_647;

/** `NAMESPACES`: a JSON list of `{"name": "files", "id": 1}` (Keto's format; a `config` member is ignored). */
function namespaces(read: Reader, key: Key): NamespaceConfig[] {
  const names = new Set<string>();
  const ids = new Set<number>();
  return jsonListOfObjects(read, key, '[{"name": "files", "id": 1}]', ['name', 'id', 'config']).map(({ name, id }, index) => {
    if (typeof name !== 'string' || !NAMESPACE_NAME.test(name)) {
      throw new ConfigError(key, `entry ${index}: name must be 1 to 64 characters without spaces, control characters or any of :#@`);
    }
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id > MAX_NAMESPACE_ID) {
      throw new ConfigError(key, `entry ${index} (${name}): id must be a whole number between 0 and ${MAX_NAMESPACE_ID}`);
    }
    if (names.has(name)) throw new ConfigError(key, `the name "${name}" is used twice`);
    if (ids.has(id)) throw new ConfigError(key, `the id ${id} is used twice`);
    names.add(name);
    ids.add(id);
    return { name, id };
  });
}

/**
 * A setting holding a JSON list of objects (a config file's list of mappings arrives as that JSON).
 * Each object may hold only the `allowed` members; the caller checks their values.
 */
function jsonListOfObjects(read: Reader, key: Key, example: string, allowed: readonly string[]): Record<string, unknown>[] {
  const raw = read(key);
  if (raw === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(key, `must be a JSON list such as ${example}`);
  }
  if (!Array.isArray(parsed)) throw new ConfigError(key, `must be a JSON list such as ${example}`);
  return parsed.map((entry: unknown, index) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      throw new ConfigError(key, `entry ${index} must be an object with ${allowed.filter((name) => name !== 'config').join(' and ')}`);
    }
    const unknown = Object.keys(entry).find((member) => !allowed.includes(member));
    if (unknown !== undefined) throw new ConfigError(key, `entry ${index} has an unknown member "${unknown}"`);
    return entry as Record<string, unknown>;
  });
}

const SCHEMA_ID = /^[A-Za-z0-9._-]{1,64}$/;
const SCHEMAS_EXAMPLE = '[{"id": "customer", "url": "file:///etc/latchkey/customer.schema.json"}]';

/**
 * `IDENTITY_SCHEMAS`: a JSON list of `{"id", "url"}` (Kratos' `identity.schemas`). `url` is a `file://`
 * URL, `base64://` followed by the base64 of the document, or the JSON document itself (inline, as a
 * string or, in a config file, as a mapping). Here the document is only read and parsed; the identities
 * context compiles it at boot.
 */
function identitySchemas(read: Reader, key: Key): IdentitySchemaSource[] {
  const ids = new Set<string>();
  return jsonListOfObjects(read, key, SCHEMAS_EXAMPLE, ['id', 'url']).map(({ id, url }, index) => {
    if (typeof id !== 'string' || !SCHEMA_ID.test(id)) {
      throw new ConfigError(key, `entry ${index}: id must be 1 to 64 letters, digits or any of ._-`);
    }
    if (ids.has(id)) throw new ConfigError(key, `the id "${id}" is used twice`);
    ids.add(id);
    if (url !== null && typeof url === 'object' && !Array.isArray(url)) {
      return { id, url: 'inline', document: url as Record<string, unknown> };
    }
    if (typeof url !== 'string' || url === '') throw new ConfigError(key, `schema "${id}": url must be a non-empty string`);
    return { id, url, document: schemaDocument(key, id, url) };
  });
}

function schemaDocument(key: Key, id: string, url: string): Record<string, unknown> {
  let text: string;
  if (url.startsWith('file://')) {
    try {
      text = readFileSync(fileURLToPath(url), 'utf8');
    } catch (error) {
      throw new ConfigError(key, `schema "${id}": cannot read ${url}: ${(error as Error).message}`);
    }
  } else if (url.startsWith('base64://')) {
    text = Buffer.from(url.slice('base64://'.length), 'base64').toString('utf8');
  } else if (url.trimStart().startsWith('{')) {
    text = url;
  } else {
    throw new ConfigError(key, `schema "${id}": url must be a file:// or base64:// URL or an inline JSON object`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new ConfigError(key, `schema "${id}" is not valid JSON`);
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new ConfigError(key, `schema "${id}" must be a JSON object`);
  }
  return document as Record<string, unknown>;
}

/** `#rgb` or `#rrggbb`: it goes into the stylesheet, so nothing else may get through. */
function hexColor(read: Reader, key: Key, fallback: string): string {
  const value = read(key) ?? fallback;
  if (!/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value)) throw new ConfigError(key, `must be a colour such as #3b5bdb, got "${value}"`);
  return value.toLowerCase();
}

/** A folder that must exist when set (the UI templates that replace the built-in ones). */
function folder(read: Reader, key: Key): string | undefined {
  const raw = read(key);
  if (raw === undefined) return undefined;
  const path = resolve(raw);
  let isFolder: boolean;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    isFolder = false;
  }
  if (!isFolder) throw new ConfigError(key, `${path} is not a folder`);
  return path;
}

const CLAIM_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const TRAIT_PATH = /^[A-Za-z0-9_-]{1,64}(?:\.[A-Za-z0-9_-]{1,64}){0,7}$/;

/**
 * `OIDC_CLAIMS_MAPPING`: a JSON object of claim name → dotted trait path (`{"given_name": "name.first"}`),
 * laid over the default mapping; a claim mapped to `null` is not released at all.
 */
function claimsMapping(read: Reader, key: Key): Readonly<Record<string, string | null>> {
  const raw = read(key);
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(key, 'must be a JSON object such as {"given_name": "name.first"}');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError(key, 'must be a JSON object such as {"given_name": "name.first"}');
  }
  const mapping: Record<string, string | null> = {};
  for (const [claim, path] of Object.entries(parsed)) {
    if (!CLAIM_NAME.test(claim)) throw new ConfigError(key, `"${claim}" is not a claim name`);
    if (claim === 'sub' || claim === 'email_verified') throw new ConfigError(key, `"${claim}" is not taken from a trait`);
    if (path !== null && (typeof path !== 'string' || !TRAIT_PATH.test(path))) {
      throw new ConfigError(key, `"${claim}" must map to a dotted trait path such as "name.first", or null`);
    }
    mapping[claim] = path;
  }
  return mapping;
}
