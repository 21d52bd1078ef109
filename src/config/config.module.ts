import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { AppConfig } from './app-config.js';
import { configSectionToken } from './inject-config.decorator.js';

/**
 * The validated configuration, each section alone through `@InjectConfig(section)`: a class holds only
 * the settings it uses. The whole configuration is not provided; only the composition roots hold it.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    const sections = Object.keys(config) as (keyof AppConfig)[];
    return {
      module: ConfigModule,
      providers: sections.map((section) => ({ provide: configSectionToken(section), useValue: config[section] })),
      exports: sections.map(configSectionToken),
    };
  }
}
