import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { AppConfig } from './app-config.js';
import { builtInPage, CONFIG_VARIABLES, type ConfigKey, type ConfigSource } from './config-variables.js';
import { ConfigError } from './config.error.js';

/**
 * Every key the service reads. Keys not listed here are ignored in the environment (it holds much
 * else) but refused in a config file (a typo there should stop the boot).
 */
export const KNOWN_KEYS = Object.keys(CONFIG_VARIABLES) as ConfigKey[];

/**
 * Builds the configuration from an environment (usually `process.env`) and the optional file it names
 * in `CONFIG_FILE`. The environment wins over the file. Throws `ConfigError` naming the first bad key.
 */
export function loadConfig(env: ConfigSource, version: string): AppConfig {
  const merged = { ...readConfigFile(env['CONFIG_FILE']), ...pickKnown(env) };
  const read = (key: string): string | undefined => {
    const value = merged[key];
    return value === undefined || value === '' ? undefined : value;
  };
  const fields: Record<string, unknown> = { version };
  const config = fields as unknown as AppConfig;
  for (const [key, variable] of Object.entries(CONFIG_VARIABLES))
    setField(fields, variable.feeds, variable.parse(read(key), key, config, env));
  const { urls, oauth2 } = config;
  return {
    ...config,
    // The OpenID Connect issuer identifier is ISSUER_URL exactly as written (already checked above).
    urls: { ...urls, issuerIdentifier: read('ISSUER_URL')?.trim() ?? urls.issuer },
    oauth2: {
      ...oauth2,
      privilegedScopes: [oauth2.adminScope],
      builtInPages: {
        login: oauth2.urls.login === builtInPage(config, 'login'),
        consent: oauth2.urls.consent === builtInPage(config, 'consent'),
        logout: oauth2.urls.logout === builtInPage(config, 'logout'),
      },
    },
  };
}

/** Sets `fields.a.b.c` from the path `a.b.c`, creating the objects on the way. */
function setField(fields: Record<string, unknown>, path: string, value: unknown): void {
  const names = path.split('.');
  const last = names.pop() as string;
  let target = fields;
  for (const name of names) target = (target[name] ??= {}) as Record<string, unknown>;
  target[last] = value;
}

function pickKnown(env: ConfigSource): Record<string, string | undefined> {
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
