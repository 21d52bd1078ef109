import { Injectable } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { MigrationRunner } from '../database/migration-runner.js';
import { ReadinessReports } from './readiness-reports.js';
import { ShutdownState } from './shutdown-state.js';

const PING_TIMEOUT_MS = 2000;

export type Readiness = { ready: true; details?: Record<string, string> } | { ready: false; errors: Record<string, string> };

/**
 * What a component report says on the public listener instead of its own message: reports name files,
 * rule ids and parse errors, which only the operator (admin listener) should read.
 */
const REPORT_ON_PUBLIC = 'unavailable';

/** Readiness = not shutting down + the database answers + no migration pending + no failing report. */
@Injectable()
export class ReadinessService {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly dataSource: DataSource,
    private readonly migrations: MigrationRunner,
    private readonly shutdown: ShutdownState,
    private readonly reports: ReadinessReports,
  ) {}

  /**
   * Readiness as the public listener shows it: ok or not, with the names of what failed. The messages of
   * the database and shutdown checks are fixed sentences and stay; a component report's own message is
   * replaced, and the details of a ready instance are left out.
   */
  async checkForPublic(): Promise<Readiness> {
    const result = await this.check();
    if (result.ready) return { ready: true };
    const errors = { ...result.errors };
    for (const [component, report] of this.reports.entries())
      if (report.failing && component in errors) errors[component] = REPORT_ON_PUBLIC;
    return { ready: false, errors };
  }

  async check(): Promise<Readiness> {
    if (this.shutdown.isShuttingDown) return { ready: false, errors: { server: 'the server is shutting down' } };
    try {
      await this.health.check([() => this.database()]);
    } catch (error) {
      const response = (error as { getResponse?: () => { error?: Record<string, { message?: string }> } }).getResponse?.();
      const errors: Record<string, string> = {};
      for (const [name, detail] of Object.entries(response?.error ?? {})) errors[name] = detail.message ?? 'unavailable';
      if (Object.keys(errors).length === 0) errors['database'] = 'unavailable';
      return { ready: false, errors: { ...errors, ...this.reported(true) } };
    }
    const failing = this.reported(true);
    if (Object.keys(failing).length > 0) return { ready: false, errors: failing };
    const details = this.reported(false);
    return Object.keys(details).length === 0 ? { ready: true } : { ready: true, details };
  }

  private reported(failing: boolean): Record<string, string> {
    const found: Record<string, string> = {};
    for (const [component, report] of this.reports.entries()) if (report.failing === failing) found[component] = report.message;
    return found;
  }

  private async database(): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check('database');
    try {
      await withTimeout(this.dataSource.query('SELECT 1'), PING_TIMEOUT_MS);
    } catch {
      // The driver's message may name hosts or users; readiness is public, so it says only what failed.
      return indicator.down({ message: 'the database is not reachable' });
    }
    try {
      if (await this.migrations.hasPending()) return indicator.down({ message: 'migrations are pending' });
    } catch {
      return indicator.down({ message: 'the migration state could not be read' });
    }
    return indicator.up();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
