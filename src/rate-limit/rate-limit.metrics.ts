import { Counter, register } from 'prom-client';

/** The counters of the rate limits, one set per process (the prom-client registry is process-global). */
export interface RateLimitMetrics {
  readonly limited: Counter<'bucket'>;
  readonly inflightViolations: Counter<'rule' | 'action'>;
  readonly storageErrors: Counter;
}

let metrics: RateLimitMetrics | undefined;

export function rateLimitMetrics(): RateLimitMetrics {
  metrics ??= {
    limited: counter('rate_limit_limited_requests_total', 'Requests refused with 429 by the project rate limits, by bucket', ['bucket']),
    inflightViolations: counter(
      'rate_limit_inflight_violations_total',
      'Requests that arrived while a request for the same resource was in flight, by inflight rule and action (enforced: refused; report-only: let through)',
      ['rule', 'action'],
    ),
    storageErrors: counter(
      'rate_limit_storage_errors_total',
      'Requests let through unchecked because the rate-limit counters (Redis) could not be reached',
      [],
    ),
  };
  return metrics;
}

function counter<T extends string>(name: string, help: string, labelNames: readonly T[]): Counter<T> {
  const existing = register.getSingleMetric(name);
  if (existing !== undefined) return existing as Counter<T>;
  return new Counter({ name, help, labelNames });
}
