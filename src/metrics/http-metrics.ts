import { Histogram, register } from 'prom-client';

export const HTTP_DURATION_METRIC = 'http_request_duration_seconds';

/** One histogram per process (the prom-client registry is process-global). */
export function httpDurationHistogram(): Histogram<'method' | 'route' | 'status_code' | 'listener'> {
  const existing = register.getSingleMetric(HTTP_DURATION_METRIC);
  if (existing !== undefined) return existing as Histogram<'method' | 'route' | 'status_code' | 'listener'>;
  return new Histogram({
    name: HTTP_DURATION_METRIC,
    help: 'Duration of HTTP requests by route template, method, status and listener',
    labelNames: ['method', 'route', 'status_code', 'listener'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });
}
