import { processCounter, type ProcessCounter } from './process-counter.js';

export const DATABASE_UNAVAILABLE_METRIC = 'database_unavailable_responses_total';

/**
 * Requests answered 503 because the database was down, starting up, saturated or timing out, by
 * listener: the figure to alert on during an outage, since these are not counted as server errors.
 */
export function databaseUnavailableResponses(): ProcessCounter<'listener'> {
  return processCounter(DATABASE_UNAVAILABLE_METRIC, 'Requests answered 503 because the database was unavailable, by listener', [
    'listener',
  ]);
}
