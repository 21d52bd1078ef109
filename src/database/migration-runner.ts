import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Any fixed 64-bit number; it names the lock that serialises migrations between instances. */
const MIGRATION_LOCK_KEY = '7265331004812';

/**
 * Runs pending migrations while holding a session-level advisory lock, so that instances starting
 * together run each migration once; the others wait and then find nothing to do.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((migration) => migration.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}

@Injectable()
export class MigrationRunner {
  private readonly logger = new Logger('Migrations');
  private upToDate = false;

  constructor(private readonly dataSource: DataSource) {}

  async runPending(): Promise<string[]> {
    const applied = await runMigrationsLocked(this.dataSource);
    for (const name of applied) this.logger.log(`applied ${name}`);
    this.upToDate = true;
    return applied;
  }

  /** True while this build knows migrations the database has not run. Cached once false. */
  async hasPending(): Promise<boolean> {
    if (this.upToDate) return false;
    const pending = await this.dataSource.showMigrations();
    this.upToDate = !pending;
    return pending;
  }
}
