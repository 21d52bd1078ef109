import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Any fixed 64-bit number; it names the lock that serialises migrations between instances. */
const MIGRATION_LOCK_KEY = 7_265_331_004_812n;

@Injectable()
export class MigrationRunner {
  private readonly logger = new Logger('Migrations');
  private upToDate = false;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Runs pending migrations while holding a session-level advisory lock, so that instances starting
   * together run each migration once; the others wait and then find nothing to do.
   */
  async runPending(): Promise<string[]> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
      try {
        const applied = await this.dataSource.runMigrations({ transaction: 'each' });
        for (const migration of applied) this.logger.log(`applied ${migration.name}`);
        this.upToDate = true;
        return applied.map((migration) => migration.name);
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
      }
    } finally {
      await runner.release();
    }
  }

  /** True while this build knows migrations the database has not run. Cached once false. */
  async hasPending(): Promise<boolean> {
    if (this.upToDate) return false;
    const pending = await this.dataSource.showMigrations();
    this.upToDate = !pending;
    return pending;
  }
}
