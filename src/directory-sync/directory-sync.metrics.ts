import { Counter, register } from 'prom-client';

const NAME = 'directory_sync_rejected_deliveries_total';
const EVENT_BY_EVENT = 'directory_sync_event_by_event_deliveries_total';

/**
 * `directory_sync_rejected_deliveries_total{reason}`: every webhook delivery the receiver refuses
 * before applying it (unknown connection, bad signature, stale timestamp, malformed envelope), also
 * those the event log only counts. No connection label: an unknown connection id is whatever the
 * sender wrote.
 *
 * `directory_sync_event_by_event_deliveries_total`: deliveries whose one pass failed and that were
 * applied again event by event (one event failing, or a conflict the one pass cannot settle). Such a
 * delivery costs both passes, so a rising count says a directory keeps sending events that fail.
 *
 * Created once per process, however many applications a test boots.
 */
export class DirectorySyncMetrics {
  private readonly rejections: Counter<'reason'>;
  private readonly eventByEvent: Counter;

  constructor() {
    this.rejections =
      (register.getSingleMetric(NAME) as Counter<'reason'> | undefined) ??
      new Counter({
        name: NAME,
        help: 'Directory-sync webhook deliveries refused before being applied, by reason',
        labelNames: ['reason'],
      });
    this.eventByEvent =
      (register.getSingleMetric(EVENT_BY_EVENT) as Counter | undefined) ??
      new Counter({
        name: EVENT_BY_EVENT,
        help: 'Directory-sync deliveries applied event by event after their one pass failed',
      });
  }

  rejected(reason: string): void {
    this.rejections.labels(reason).inc();
  }

  appliedEventByEvent(): void {
    this.eventByEvent.inc();
  }
}
