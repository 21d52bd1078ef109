export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type NodeEnv = 'development' | 'production' | 'test';

/**
 * The whole configuration, validated once at boot. Nothing outside src/config reads process.env. Each
 * field is filled by one setting declared in config-variables.ts; classes inject the section they read
 * with `@InjectConfig(section)`.
 */
export interface AppConfig {
  readonly env: NodeEnv;
  readonly version: string;
  readonly http: HttpConfig;
  readonly urls: UrlsConfig;
  readonly database: DatabaseConfig;
  readonly secrets: SecretsConfig;
  readonly admin: AdminConfig;
  readonly log: LogConfig;
  readonly errors: ErrorsConfig;
  readonly redis: RedisConfig;
  readonly shutdown: ShutdownConfig;
  readonly outbound: OutboundConfig;
  readonly tuples: TuplesConfig;
  readonly rules: RulesConfig;
  readonly identities: IdentitiesConfig;
  readonly cookies: CookiesConfig;
  readonly oauth2: OAuth2Config;
  readonly selfService: SelfServiceConfig;
  readonly passwordPolicy: PasswordPolicyConfig;
  readonly courier: CourierConfig;
  readonly ui: UiConfig;
  readonly rateLimit: RateLimitConfig;
  readonly webhooks: WebhooksConfig;
  readonly decisions: DecisionsConfig;
}

export interface HttpConfig {
  readonly host: string;
  readonly publicPort: number;
  readonly adminPort: number;
  /** `undefined` keeps the proxy listener closed. */
  readonly proxyPort: number | undefined;
  readonly bodyLimitBytes: number;
  readonly trustProxy: boolean;
}

export interface UrlsConfig {
  /** Public base URL, without a trailing slash: every URL the service builds starts with it. */
  readonly issuer: string;
  /**
   * The OpenID Connect issuer identifier exactly as ISSUER_URL was written (a trailing slash kept):
   * discovery's `issuer`, the `iss` of every token and introspection. Relying parties compare it as a
   * string, and Hydra v1.5 always ends it with a slash.
   */
  readonly issuerIdentifier: string;
  /** Base URL of the admin listener as resource servers reach it (discovery's `introspection_endpoint`). */
  readonly admin: string;
}

export interface DatabaseConfig {
  /** `undefined` starts an embedded PostgreSQL in `dataDir`. */
  readonly url: string | undefined;
  readonly dataDir: string;
  readonly poolSize: number;
  readonly connectTimeoutMs: number;
  readonly statementTimeoutMs: number;
  readonly migrateOnStart: boolean;
  /**
   * The longest any cross-instance cache (clients, keys, policies, roles, tuples, sessions...) may
   * serve a value after it changed, should the change's announcement be missed: every instance drops
   * all of them this often.
   */
  readonly cacheMaxStalenessSeconds: number;
}

export interface SecretsConfig {
  /** The first secret encrypts and signs; every secret decrypts and verifies. Empty until provisioned. */
  readonly system: readonly string[];
}

export interface AdminConfig {
  readonly auth: 'on' | 'off';
  /** SHA-256 digests (hex) of the static admin bearer tokens; the tokens themselves are not kept. */
  readonly tokenDigests: readonly string[];
}

export interface LogConfig {
  readonly level: LogLevel;
}

export interface ErrorsConfig {
  readonly exposeInternal: boolean;
}

export interface RedisConfig {
  readonly url: string | undefined;
}

export interface ShutdownConfig {
  /** How long the listeners keep serving after readiness turns 503, so load balancers can drain. */
  readonly drainDelayMs: number;
  /** How long in-flight requests may take after the listeners stop accepting, before they are cut. */
  readonly timeoutMs: number;
}

export interface OutboundConfig {
  /** Allow outbound fetches (sector_identifier_uri, jwks_uri, ...) to private and loopback addresses. */
  readonly allowPrivateNetworks: boolean;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** A PEM file of CA certificates trusted for outbound HTTPS in addition to the system CAs. */
  readonly caFile: string | undefined;
}

/** A relation-tuple namespace: tuples are stored under `id`, so a namespace may be renamed but never renumbered. */
export interface NamespaceConfig {
  readonly name: string;
  readonly id: number;
}

/** One handler's global settings in DECISIONS_PIPELINE (Oathkeeper's `{enabled, config}`). */
export interface HandlerSetting {
  /** Unset: enabled when the handler stays in process, disabled when it would reach another host. */
  readonly enabled?: boolean;
  readonly config?: Readonly<Record<string, unknown>>;
}

/** DECISIONS_PIPELINE: Oathkeeper's `authenticators`, `authorizers`, `mutators` and `errors` sections. */
export interface PipelineSettings {
  readonly authenticators: Readonly<Record<string, HandlerSetting>>;
  readonly authorizers: Readonly<Record<string, HandlerSetting>>;
  readonly mutators: Readonly<Record<string, HandlerSetting>>;
  readonly errors: Readonly<Record<string, HandlerSetting>>;
  /** `errors.fallback`: the error handlers of rules that name none (default `["json"]`). */
  readonly errorFallback: readonly string[];
}

export interface DecisionsConfig {
  readonly pipeline: PipelineSettings;
  /** CIDRs whose X-Forwarded-Method/-Proto/-Host/-Uri/-For the decision API and the proxy honour. */
  readonly trustedProxies: readonly string[];
  /** CIDRs that may call `/decisions` on the admin listener. */
  readonly allowedPeers: readonly string[];
  /** The proxy's deadline for an upstream's answer (connect and response headers). */
  readonly proxyTimeoutMs: number;
}

export interface TuplesConfig {
  readonly namespaces: readonly NamespaceConfig[];
  /** Depth of check and expand when a request names none, and the most a request may ask for. */
  readonly maxDepth: number;
  /** Entries of the in-process check cache; 0 turns it off. */
  readonly cacheSize: number;
  /** Entries of the in-process memo of the group graph that uncached checks walk; 0 turns it off. */
  readonly setCacheSize: number;
}

export interface RulesConfig {
  /** Absolute paths of rule files (JSON or YAML arrays) and of directories holding them; watched. */
  readonly files: readonly string[];
  /** How `match.url` is read: `<...>` holds a regular expression, or a glob. */
  readonly matchingStrategy: 'regexp' | 'glob';
}

/** One `IDENTITY_SCHEMAS` entry: `url` as configured, `document` the JSON it resolved to (not yet compiled). */
export interface IdentitySchemaSource {
  readonly id: string;
  readonly url: string;
  readonly document: Readonly<Record<string, unknown>>;
}

export interface Argon2Config {
  readonly memoryKib: number;
  readonly iterations: number;
  readonly parallelism: number;
}

export interface IdentitiesConfig {
  /** Empty: only the built-in email + password schema (id `default`) exists. */
  readonly schemas: readonly IdentitySchemaSource[];
  /** `undefined`: `default` if such a schema exists, else the first configured one. */
  readonly defaultSchemaId: string | undefined;
  /** argon2id parameters for passwords imported in clear text. */
  readonly argon2: Argon2Config;
  /** Password hashes (and verifications) running at once; more wait their turn (PasswordHashing). */
  readonly hashingConcurrency: number;
}

export interface CookiesConfig {
  /** Mark cookies `Secure`: defaults to true when the issuer is https. */
  readonly secure: boolean;
  readonly sameSite: 'lax' | 'strict' | 'none';
}

/** Lifetimes in seconds. */
export interface OAuth2TtlConfig {
  readonly accessToken: number;
  readonly refreshToken: number;
  readonly idToken: number;
  readonly authorizationCode: number;
  /** How long a login or consent request (and its verifier) may wait for the browser. */
  readonly loginConsentRequest: number;
}

/** Where the browser is sent for each step the service delegates. Absolute URLs. */
export interface OAuth2UrlsConfig {
  readonly login: string;
  readonly consent: string;
  readonly logout: string;
  readonly error: string;
  /** Where a logout without a (valid) post_logout_redirect_uri ends. */
  readonly postLogoutRedirect: string;
}

export interface OAuth2Config {
  readonly urls: OAuth2UrlsConfig;
  readonly ttl: OAuth2TtlConfig;
  /** `opaque`: `<prefix>_<random>.<hmac>` tokens; `jwt`: RFC 9068 access tokens signed by `oauth2.access-token`. */
  readonly accessTokenStrategy: 'opaque' | 'jwt';
  /** The scope that makes a client_credentials access token an admin credential. */
  readonly adminScope: string;
  /** `wildcard` (Hydra's default: `foo.*` allows `foo.bar`) or `exact`. */
  readonly scopeStrategy: 'wildcard' | 'exact';
  /** Scopes granted only to a client that lists them literally, whatever the strategy (the admin scope). */
  readonly privilegedScopes: readonly string[];
  /** How far a client's clock may be off for the `iat`, `nbf` and `exp` of the JWTs it sends (private_key_jwt). */
  readonly clockSkewSeconds: number;
  readonly subjectTypes: readonly ('public' | 'pairwise')[];
  /** Salt for pairwise subjects; `undefined`: derived from the first system secret. */
  readonly pairwiseSalt: string | undefined;
  /** Added to discovery's scopes_supported / claims_supported. */
  readonly supportedScopes: readonly string[];
  readonly supportedClaims: readonly string[];
  /** OIDC_CLAIMS_MAPPING: claim → dotted trait path, over the default mapping; `null` withholds a claim. */
  readonly claimsMapping: Readonly<Record<string, string | null>>;
  /** Which of URLS_LOGIN / URLS_CONSENT / URLS_LOGOUT are the built-in pages (not set to an app of one's own). */
  readonly builtInPages: { readonly login: boolean; readonly consent: boolean; readonly logout: boolean };
  /** How often the janitor removes expired tokens, codes and requests; 0 turns the periodic job off. */
  readonly janitorIntervalSeconds: number;
}

/** Where the browser is sent for each self-service flow (`?flow=<id>`) and for errors (`?error=<id>`). Absolute URLs. */
export interface SelfServiceUrlsConfig {
  readonly login: string;
  readonly registration: string;
  readonly settings: string;
  readonly recovery: string;
  readonly verification: string;
  readonly error: string;
}

/** Failed password logins allowed per window before further attempts get a 429; 0 turns a limit off. */
export interface LoginThrottleConfig {
  readonly maxFailuresPerIdentifier: number;
  readonly maxFailuresPerIp: number;
  readonly windowSeconds: number;
}

/** Self-service flows and sessions (src/self-service). Durations in seconds. */
export interface SelfServiceConfig {
  readonly flowLifespan: number;
  readonly sessionLifespan: number;
  /** How recently a session must have authenticated to change the password in a settings flow. */
  readonly privilegedSessionMaxAge: number;
  /** How long `GET /sessions/whoami` may answer from its in-process cache; 0 turns the cache off. */
  readonly sessionCacheTtl: number;
  /** Where browsers go after a flow when no (allowed) `return_to` was given. */
  readonly defaultBrowserReturnUrl: string;
  /** `return_to` must match one of these by scheme, host, port and path prefix (the issuer always counts). */
  readonly allowedReturnUrls: readonly string[];
  /**
   * `GET /self-service/browser/flows/logout` ends the session only with the session's logout token
   * (`?token=`, from `GET /self-service/logout/browser`), so a cross-site navigation cannot log anyone out.
   */
  readonly logoutRequiresToken: boolean;
  readonly urls: SelfServiceUrlsConfig;
  readonly loginThrottle: LoginThrottleConfig;
}

/** The breached-password check against a Have I Been Pwned range API (k-anonymity: only 5 hex digits of the SHA-1 leave). */
export interface HaveIBeenPwnedConfig {
  readonly enabled: boolean;
  /** Base URL of the range API, without a trailing slash (`{url}/range/{prefix}`). */
  readonly url: string;
  /** A password seen in more breaches than this is refused. */
  readonly maxBreaches: number;
  /** When the API cannot be reached, accept the password (true) or refuse the request with a 503 (false). */
  readonly ignoreNetworkErrors: boolean;
}

/** Rules for passwords set at registration, in settings and after recovery (lengths in Unicode code points). */
export interface PasswordPolicyConfig {
  readonly minLength: number;
  readonly maxLength: number;
  readonly identifierSimilarityCheck: boolean;
  readonly haveIBeenPwned: HaveIBeenPwnedConfig;
}

/** How the courier reaches the SMTP server: parsed from COURIER_SMTP_URL. */
export interface SmtpConnectionConfig {
  /** `smtps`: TLS from the first byte; `smtp`: STARTTLS when offered unless `disableStartTls`. */
  readonly secure: boolean;
  readonly host: string;
  readonly port: number;
  readonly username: string | undefined;
  readonly password: string | undefined;
  /** `?skip_ssl_verify=true`: accept any server certificate (development only). */
  readonly skipTlsVerify: boolean;
  /** `?disable_starttls=true`: never upgrade an smtp:// connection. */
  readonly disableStartTls: boolean;
}

/** The e-mail courier (src/self-service/courier). */
export interface CourierConfig {
  /** `undefined`: messages are queued and kept, and nothing is sent. */
  readonly smtp: SmtpConnectionConfig | undefined;
  readonly fromAddress: string;
  readonly fromName: string | undefined;
  /** A folder whose `<template>/email.{subject,body,body.plaintext}.hbs` files replace the built-in ones. */
  readonly templateOverridePath: string | undefined;
  /** How often the dispatcher looks for due messages. */
  readonly dispatchIntervalMs: number;
  /** Delivery attempts before a message is abandoned. */
  readonly maxAttempts: number;
  /** Delay before the first retry; doubles with every further attempt (capped at one hour). */
  readonly retryBaseDelayMs: number;
}

/** The built-in sign-in pages (src/ui). */
export interface UiConfig {
  readonly productName: string;
  readonly logoUrl: string | undefined;
  /** `#rrggbb` (or `#rgb`), lower case. */
  readonly primaryColor: string;
  /** A folder whose `<page>.hbs` files replace the built-in templates. */
  readonly templatesDir: string | undefined;
}

/** The hosted offer's plans; the legacy names `essential` and `scale` are read as `production` and `growth`. */
export type RateLimitPlan = 'off' | 'developer' | 'production' | 'growth' | 'enterprise';
export type RateLimitEnvironment = 'production' | 'staging' | 'development';

/** Limits arranged on request for one bucket, in place of the plan's. */
export interface RateLimitOverride {
  /** The bucket as the plan tables write it: `*`, or an optional method and a path pattern. */
  readonly bucket: string;
  readonly burstRps: number;
  readonly sustainedRpm: number;
}

/** Project rate limits (src/rate-limit). Inflight rules apply whatever the plan. */
export interface RateLimitConfig {
  /** `off`: no project limits. */
  readonly plan: RateLimitPlan;
  readonly environment: RateLimitEnvironment;
  /** The project the counters are kept under (instances sharing a Redis share a project's counters). */
  readonly project: string;
  readonly overrides: readonly RateLimitOverride[];
  /** CIDR blocks whose requests get the limits of the next plan up, counted apart. */
  readonly trustedIps: readonly string[];
  /** `on`: the inflight rules as published; `report-only`: enforced ones only log too; `off`: none. */
  readonly inflight: 'on' | 'report-only' | 'off';
}

/** The directory-sync webhook receiver (docs/directory-sync.md). */
export interface WebhooksConfig {
  /** How far a signature's timestamp may be from now, past or future. */
  readonly toleranceSeconds: number;
  /** How long a rotated-out secret keeps verifying. */
  readonly secretGraceSeconds: number;
  /** How long event log entries are kept. */
  readonly eventRetentionSeconds: number;
  /** How often expired log entries and replay records are deleted; 0 = never. */
  readonly janitorIntervalSeconds: number;
  /** Per identity schema id: trait path → path into the event's `data`. */
  readonly traitsMapping: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Directory-asserted e-mail addresses are stored as verified. */
  readonly verifyAddresses: boolean;
  readonly bodyLimitBytes: number;
  /** Deliveries of one connection applied at once by one instance; the rest wait their turn. */
  readonly concurrency: number;
}
