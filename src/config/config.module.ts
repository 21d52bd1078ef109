import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from './app-config.js';
import { configSectionToken } from './inject-config.decorator.js';

/** The validated configuration: whole as APP_CONFIG, and each section alone through `@InjectConfig(section)`. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    const sections = Object.keys(config) as (keyof AppConfig)[];
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        ...sections.map((section) => ({ provide: configSectionToken(section), useValue: config[section] })),
      ],
      exports: [APP_CONFIG, ...sections.map(configSectionToken)],
    };
  }
}
