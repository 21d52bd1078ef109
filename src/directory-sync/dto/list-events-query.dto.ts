import { IsIn, IsOptional } from 'class-validator';
import { EVENT_OUTCOMES, type EventOutcome } from '../event-outcome.js';

/** Query of `GET …/events`. `limit` and `offset` are read by PageQuery; `outcome` keeps entries with it. */
export class ListEventsQueryDto {
  @IsOptional()
  limit?: unknown;

  @IsOptional()
  offset?: unknown;

  @IsOptional()
  @IsIn(EVENT_OUTCOMES)
  outcome?: EventOutcome;
}
