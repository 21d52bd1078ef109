import { Counter, register } from 'prom-client';

export const DATABASE_UNAVAILABLE_METRIC = 'database_unavailable_responses_total';

/**
 * Requests answered 503 because the database was down, starting up, saturated or timing out, by
 * listener: the figure to alert on during an outage, since these are not counted as server errors.
 * One per process (prom-client's registry is process-global), registered on first use.
 */
export function databaseUnavailableResponses(): Counter<'listener'> {
  const existing = register.getSingleMetric(DATABASE_UNAVAILABLE_METRIC);
  if (existing instanceof Counter) return existing as Counter<'listener'>;
  return new Counter({
    name: DATABASE_UNAVAILABLE_METRIC,
    help: 'Requests answered 503 because the database was unavailable, by listener',
    labelNames: ['listener'],
  });
}
