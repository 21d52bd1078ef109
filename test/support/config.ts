import { expect } from 'vitest';
import { ConfigError } from '../../src/config/config.error.js';
import { loadConfig } from '../../src/config/config.loader.js';

/** The setting a ConfigError names for this environment, or undefined when it loads. */
export function keyOfError(env: Record<string, string>): string | undefined {
  try {
    loadConfig(env, '1.0.0');
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).key;
  }
}
