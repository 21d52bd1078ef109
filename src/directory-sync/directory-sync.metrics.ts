import { Counter, register } from 'prom-client';

const NAME = 'directory_sync_rejected_deliveries_total';

/**
 * `directory_sync_rejected_deliveries_total{reason}`: every webhook delivery the receiver refuses
 * before applying it (unknown connection, bad signature, stale timestamp, malformed envelope), also
 * those the event log only counts. No connection label: an unknown connection id is whatever the
 * sender wrote. Created once per process, however many applications a test boots.
 */
export class DirectorySyncMetrics {
  private readonly rejections: Counter<'reason'>;

  constructor() {
    this.rejections =
      (register.getSingleMetric(NAME) as Counter<'reason'> | undefined) ??
      new Counter({
        name: NAME,
        help: 'Directory-sync webhook deliveries refused before being applied, by reason',
        labelNames: ['reason'],
      });
  }

  rejected(reason: string): void {
    this.rejections.labels(reason).inc();
  }
}
