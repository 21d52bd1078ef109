import { ConfigError } from '../config/config.error.js';
import { migrateDatabase } from '../database/migrate-database.js';

/** `npm run migrate`: applies pending migrations to the configured (or embedded) database and exits. */
migrateDatabase(process.env, (line) => process.stderr.write(`${line}\n`)).then(
  (applied) => process.stdout.write(applied.length === 0 ? 'No pending migrations.\n' : `Applied: ${applied.join(', ')}\n`),
  (error: unknown) => {
    process.stderr.write(
      error instanceof ConfigError
        ? `Configuration error: ${error.message}\n`
        : `Migration failed: ${(error as Error).stack ?? String(error)}\n`,
    );
    process.exit(1);
  },
);
