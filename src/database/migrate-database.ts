import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/config.loader.js';
import { packageVersion } from '../config/version.js';
import { dataSourceOptions } from './data-source.options.js';
import { openDatabaseServer } from './database-server.js';
import { runMigrationsLocked } from './migration-runner.js';

/**
 * Applies pending migrations to the configured (or embedded) database and closes it again: the one
 * way `npm run migrate` and `latchkey migrate` do it. Returns the names of the migrations applied.
 */
export async function migrateDatabase(env: Readonly<Record<string, string | undefined>>, log: (line: string) => void): Promise<string[]> {
  const config = loadConfig(env, packageVersion());
  const server = await openDatabaseServer(config.database, log);
  const dataSource = new DataSource(dataSourceOptions(server.url, config.database));
  try {
    await dataSource.initialize();
    return await runMigrationsLocked(dataSource);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await server.stop();
  }
}
