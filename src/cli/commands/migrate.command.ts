import type { Command } from 'commander';
import { migrateDatabase } from '../../database/migrate-database.js';
import { ExitCode } from '../cli-io.js';
import type { ActionFactory } from './action-factory.js';

/**
 * `latchkey migrate`: applies pending migrations to the database the service is configured with
 * (`DATABASE_URL`, or the embedded one in `DATA_DIR`). Unlike the other commands it does not call a
 * running instance: migrations must be possible before one runs.
 */
export function registerMigrate(program: Command, action: ActionFactory): void {
  program
    .command('migrate')
    .description("apply pending database migrations (reads the service's own settings: DATABASE_URL, DATA_DIR, ...)")
    .action(
      action(async ({ out, io }) => {
        const applied = await migrateDatabase(io.env, (line) => out.progress(line));
        out.result({ applied }, () => (applied.length === 0 ? 'No pending migrations.' : `Applied: ${applied.join(', ')}`));
        return ExitCode.OK;
      }),
    );
}
