import { processCounter, type ProcessCounter } from '../metrics/index.js';

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
 */
export class DirectorySyncMetrics {
  private readonly rejections: ProcessCounter<'reason'> = processCounter(
    NAME,
    'Directory-sync webhook deliveries refused before being applied, by reason',
    ['reason'],
  );
  private readonly eventByEvent: ProcessCounter = processCounter(
    EVENT_BY_EVENT,
    'Directory-sync deliveries applied event by event after their one pass failed',
  );

  rejected(reason: string): void {
    this.rejections.series(reason).inc();
  }

  appliedEventByEvent(): void {
    this.eventByEvent.series().inc();
  }
}
