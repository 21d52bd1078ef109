import { statSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type {
  HandlerSetting,
  IdentitySchemaSource,
  NamespaceConfig,
  NodeEnv,
  PipelineSettings,
  RateLimitOverride,
  RateLimitPlan,
  SmtpConnectionConfig,
} from './app-config.js';
import { ConfigError } from './config.error.js';

/*
 * The parsers of single settings. Each takes the raw value (undefined when unset or empty) and the key
 * it came from, and throws a ConfigError naming that key when the value cannot be used.
 */

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

export function rateLimitPlan(raw: string | undefined, key: string): RateLimitPlan {
  const name = raw ?? 'off';
  const plan = RATE_LIMIT_PLANS[name];
  if (plan === undefined) throw new ConfigError(key, `must be one of ${Object.keys(RATE_LIMIT_PLANS).join(', ')}, got "${name}"`);
  return plan;
}

export function rateLimitProject(raw: string | undefined, key: string): string {
  const project = raw ?? 'default';
  if (!RATE_LIMIT_PROJECT.test(project)) throw new ConfigError(key, 'must be 1 to 64 letters, digits or any of ._-');
  return project;
}

/** `RATE_LIMIT_OVERRIDES`: a JSON or YAML list of `{bucket, burst_rps, sustained_rpm}`, one entry per bucket. */
export function rateLimitOverrides(raw: string | undefined, key: string): RateLimitOverride[] {
  if (raw === undefined) return [];
  let parsed: unknown;
  try {
    parsed = parseYaml(raw);
  } catch {
    throw new ConfigError(key, `must be a JSON or YAML list such as ${OVERRIDES_EXAMPLE}`);
  }
  const text = JSON.stringify(parsed ?? []);
  const buckets = new Set<string>();
  return jsonListOfObjects(text, key, OVERRIDES_EXAMPLE, ['bucket', 'burst_rps', 'sustained_rpm']).map((entry, index) => {
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
export function cidrList(raw: string | undefined, key: string, fallback: readonly string[] = []): string[] {
  if (raw === undefined) return [...fallback];
  return list(raw).map((item) => {
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
export function traitsMapping(raw: string | undefined, key: string): Record<string, Record<string, string>> {
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
export function defaultDrainDelayMs(nodeEnv: NodeEnv): number {
  return nodeEnv === 'production' ? 5000 : 250;
}

/** Loopback and private ranges: who may call `/decisions` unless DECISIONS_ALLOWED_PEERS says otherwise. */
export const PRIVATE_RANGES = ['127.0.0.0/8', '::1/128', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'];

const PIPELINE_SECTIONS = ['authenticators', 'authorizers', 'mutators', 'errors'] as const;

/**
 * DECISIONS_PIPELINE: a JSON object (or a mapping in the config file) with Oathkeeper's sections,
 * each handler `{enabled?, config?}`; `errors` may also hold `fallback` (list of handler names) and
 * its handlers under `handlers`, as Oathkeeper nests them. Handler names are checked by the pipeline.
 */
export function pipelineSettings(raw: string | undefined, key: string): PipelineSettings {
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

function handlerSettings(key: string, section: string, value: unknown): Record<string, HandlerSetting> {
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

/** `smtp://user:pass@host:587/` or `smtps://…:465/`, with Kratos' `skip_ssl_verify` and `disable_starttls` query flags. */
export function smtpConnection(raw: string | undefined, key: string): SmtpConnectionConfig | undefined {
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
export function emailAddress(raw: string | undefined, key: string, fallback: string): string {
  const value = raw ?? fallback;
  if (!/^[^\s@<>",]+@[^\s@<>",]+$/.test(value))
    throw new ConfigError(key, `must be an e-mail address such as no-reply@example.com, got "${value}"`);
  return value;
}

/**
 * As many as the machine has cores, and one thread less than libuv's pool (UV_THREADPOOL_SIZE, 4
 * unless set; libuv's bounds 1–1024), at least 1. Hashes run on that pool, and jose's signing, DNS
 * lookups and file reads need a thread free while logins hash; hashes are CPU-bound, so more at once
 * than cores only share the cores (docs/identities.md, "Hashing").
 */
export function defaultHashingConcurrency(poolSize: string | undefined): number {
  const size = poolSize !== undefined && /^\d+$/.test(poolSize) ? Math.min(Math.max(Number(poolSize), 1), 1024) : 4;
  return Math.max(Math.min(size - 1, availableParallelism()), 1);
}

export function int(raw: string | undefined, key: string, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(key, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(key, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

export function port(raw: string | undefined, key: string, fallback: number): number {
  return int(raw, key, fallback, 0, 65535);
}

export function bool(raw: string | undefined, key: string, fallback: boolean): boolean {
  const value = raw?.toLowerCase();
  if (value === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(key, `must be true or false, got "${value}"`);
}

export function oneOf<T extends string>(raw: string | undefined, key: string, allowed: readonly T[], fallback: T): T {
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(key, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

export function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, k: 1024, mb: 1024 ** 2, m: 1024 ** 2 };

export function byteSize(raw: string | undefined, key: string, fallback: number): number {
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
export function duration(raw: string | undefined, key: string, fallback: number, min = 1): number {
  if (raw === undefined) return fallback;
  const match = /^(\d+)([smh]?)$/.exec(raw.trim());
  const unit = DURATION_UNITS[match?.[2] ?? 'x'];
  if (match === null || unit === undefined) throw new ConfigError(key, `must be a duration such as 3600, 90s, 30m or 720h, got "${raw}"`);
  const seconds = Number(match[1]) * unit;
  if (seconds < min || seconds > 10 * 365 * 86_400) throw new ConfigError(key, `must be between ${min}s and 10 years, got "${raw}"`);
  return seconds;
}

export function subjectTypes(raw: string | undefined, key: string): ('public' | 'pairwise')[] {
  const types = list(raw);
  if (types.length === 0) return ['public'];
  for (const type of types) {
    if (type !== 'public' && type !== 'pairwise') throw new ConfigError(key, `must list public and/or pairwise, got "${type}"`);
  }
  return [...new Set(types as ('public' | 'pairwise')[])];
}

function parseUrl(key: string, raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new ConfigError(key, 'must be an absolute URL');
  }
}

export function httpUrl(raw: string | undefined, key: string, fallback: string): string {
  const url = parseUrl(key, raw ?? fallback);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(key, 'must be an http or https URL');
  if (url.search !== '' || url.hash !== '') throw new ConfigError(key, 'must not carry a query or a fragment');
  return url.href.replace(/\/+$/, '');
}

/** A comma-separated list of http(s) URLs (no query or fragment), e.g. SELFSERVICE_ALLOWED_RETURN_URLS. */
export function urlList(raw: string | undefined, key: string): string[] {
  return list(raw).map((raw) => {
    const url = parseUrl(key, raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(key, `"${raw}" must be an http or https URL`);
    if (url.search !== '' || url.hash !== '') throw new ConfigError(key, `"${raw}" must not carry a query or a fragment`);
    return url.href;
  });
}

export function postgresUrl(raw: string | undefined, key: string): string | undefined {
  if (raw === undefined) return undefined;
  const url = parseUrl(key, raw);
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(key, 'must be a postgres:// or postgresql:// URL');
  }
  return raw;
}

export function redisUrl(raw: string | undefined, key: string): string | undefined {
  if (raw === undefined) return undefined;
  const url = parseUrl(key, raw);
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new ConfigError(key, 'must be a redis:// or rediss:// URL');
  return raw;
}

/** A namespace name can be written in a subject set (`namespace:object#relation`), so it holds none of `:#@`. */
const NAMESPACE_NAME = /^[^\s:#@\p{Cc}]{1,64}$/u;
const MAX_NAMESPACE_ID = 2_147_483_647;

/** `NAMESPACES`: a JSON list of `{"name": "files", "id": 1}` (Keto's format; a `config` member is ignored). */
export function namespaces(raw: string | undefined, key: string): NamespaceConfig[] {
  const names = new Set<string>();
  const ids = new Set<number>();
  return jsonListOfObjects(raw, key, '[{"name": "files", "id": 1}]', ['name', 'id', 'config']).map(({ name, id }, index) => {
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
function jsonListOfObjects(raw: string | undefined, key: string, example: string, allowed: readonly string[]): Record<string, unknown>[] {
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
export function identitySchemas(raw: string | undefined, key: string): IdentitySchemaSource[] {
  const ids = new Set<string>();
  return jsonListOfObjects(raw, key, SCHEMAS_EXAMPLE, ['id', 'url']).map(({ id, url }, index) => {
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

function schemaDocument(key: string, id: string, url: string): Record<string, unknown> {
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
export function hexColor(raw: string | undefined, key: string, fallback: string): string {
  const value = raw ?? fallback;
  if (!/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value)) throw new ConfigError(key, `must be a colour such as #3b5bdb, got "${value}"`);
  return value.toLowerCase();
}

/** A folder that must exist when set (the UI templates that replace the built-in ones). */
export function folder(raw: string | undefined, key: string): string | undefined {
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
export function claimsMapping(raw: string | undefined, key: string): Readonly<Record<string, string | null>> {
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
