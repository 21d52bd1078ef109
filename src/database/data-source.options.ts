import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config.js';
import { ENTITIES, MIGRATIONS } from './schema.js';

export function dataSourceOptions(
  url: string,
  config: Pick<DatabaseConfig, 'poolSize' | 'connectTimeoutMs' | 'statementTimeoutMs'>,
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'latchkey_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    uuidExtension: 'pgcrypto',
    extra: {
      max: config.poolSize,
      // A bounded wait for a connection: a full pool or a down database gives an error, not a hang.
      connectionTimeoutMillis: config.connectTimeoutMs,
      idleTimeoutMillis: 30_000,
      statement_timeout: config.statementTimeoutMs === 0 ? undefined : config.statementTimeoutMs,
      application_name: 'latchkey',
    },
  };
}
