import type { EventOutcome } from '../event-outcome.js';

/** An event log entry on the wire. */
export class EventResponseDto {
  id!: string;
  received_at!: string;
  event!: string | null;
  directory_id!: string | null;
  /** `data.id`: the directory user or group. */
  object_id!: string | null;
  /** Membership events: the group. */
  group_id!: string | null;
  outcome!: EventOutcome;
  error_code!: string | null;
  /** `rejected`: the refusals of this connection and reason in the minute from `received_at`; 1 otherwise. */
  count!: number;
}
