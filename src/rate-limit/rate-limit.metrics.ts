import { processCounter, type ProcessCounter } from '../metrics/index.js';

/** The counters of the rate limits. */
export interface RateLimitMetrics {
  readonly limited: ProcessCounter<'bucket'>;
  readonly inflightViolations: ProcessCounter<'rule' | 'action'>;
  readonly storageErrors: ProcessCounter;
}

export function rateLimitMetrics(): RateLimitMetrics {
  return {
    limited: processCounter('rate_limit_limited_requests_total', 'Requests refused with 429 by the project rate limits, by bucket', [
      'bucket',
    ]),
    inflightViolations: processCounter(
      'rate_limit_inflight_violations_total',
      'Requests that arrived while a request for the same resource was in flight, by inflight rule and action (enforced: refused; report-only: let through)',
      ['rule', 'action'],
    ),
    storageErrors: processCounter(
      'rate_limit_storage_errors_total',
      'Requests let through unchecked because the rate-limit counters (Redis) could not be reached',
    ),
  };
}
