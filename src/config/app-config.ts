export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type NodeEnv = 'development' | 'production' | 'test';

/** The whole configuration, validated once at boot. Nothing outside src/config reads process.env. */
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
  readonly identities: IdentitiesConfig;
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
  /** Public base URL and OpenID Connect issuer, without a trailing slash. */
  readonly issuer: string;
}

export interface DatabaseConfig {
  /** `undefined` starts an embedded PostgreSQL in `dataDir`. */
  readonly url: string | undefined;
  readonly dataDir: string;
  readonly poolSize: number;
  readonly connectTimeoutMs: number;
  readonly statementTimeoutMs: number;
  readonly migrateOnStart: boolean;
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

export interface TuplesConfig {
  readonly namespaces: readonly NamespaceConfig[];
  /** Depth of check and expand when a request names none, and the most a request may ask for. */
  readonly maxDepth: number;
  /** Entries of the in-process check cache; 0 turns it off. */
  readonly cacheSize: number;
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
}

export const APP_CONFIG = Symbol('APP_CONFIG');
