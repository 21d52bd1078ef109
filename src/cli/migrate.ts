import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/config.loader.js';
import { ConfigError } from '../config/config.error.js';
import { packageVersion } from '../config/version.js';
import { dataSourceOptions } from '../database/data-source.options.js';
import { openDatabaseServer } from '../database/database-server.js';
import { runMigrationsLocked } from '../database/migration-runner.js';

/** `npm run migrate`: applies pending migrations to the configured (or embedded) database and exits. */
async function main(): Promise<void> {
  const config = loadConfig(process.env, packageVersion());
  const server = await openDatabaseServer(config.database, (line) => process.stderr.write(`${line}\n`));
  const dataSource = new DataSource(dataSourceOptions(server.url, config.database));
  try {
    await dataSource.initialize();
    const applied = await runMigrationsLocked(dataSource);
    process.stdout.write(applied.length === 0 ? 'No pending migrations.\n' : `Applied: ${applied.join(', ')}\n`);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    error instanceof ConfigError
      ? `Configuration error: ${error.message}\n`
      : `Migration failed: ${(error as Error).stack ?? String(error)}\n`,
  );
  process.exit(1);
});
