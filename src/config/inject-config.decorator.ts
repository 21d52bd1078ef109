import { Inject } from '@nestjs/common';
import type { AppConfig } from './app-config.js';

/** The injection token of one section of the configuration (ConfigModule provides one per section). */
export function configSectionToken(section: keyof AppConfig): string {
  return `APP_CONFIG.${section}`;
}

/**
 * Injects one section of the validated configuration, e.g. `@InjectConfig('oauth2') oauth2: OAuth2Config`,
 * so that a class holds only the settings it uses and no secrets it has no use for.
 */
export function InjectConfig(section: keyof AppConfig): PropertyDecorator & ParameterDecorator {
  return Inject(configSectionToken(section));
}
