import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DatabaseConfig } from '../config/app-config.js';
import { ChangeNotifier } from './change-notifier.js';
import { dataSourceOptions } from './data-source.options.js';
import { DATABASE_URL } from './database.tokens.js';
import { MigrationRunner } from './migration-runner.js';

/**
 * One pool per process. Global because every context's repositories and the health checks need the
 * same DataSource; contexts still reach each other only through services.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(url: string, config: DatabaseConfig): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(url, config), retryAttempts: 0 })],
      providers: [{ provide: DATABASE_URL, useValue: url }, MigrationRunner, ChangeNotifier],
      exports: [DATABASE_URL, MigrationRunner, ChangeNotifier],
    };
  }
}
