import { Histogram, Registry, type Metric } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { HttpDurationHistogram } from './http-metrics.js';

/** The histogram this one replaced, as it was declared. */
function promClientHistogram(registry: Registry): Histogram<'method' | 'route' | 'status_code' | 'listener'> {
  return new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of HTTP requests by route template, method, status and listener',
    labelNames: ['method', 'route', 'status_code', 'listener'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
}

const OBSERVATIONS: ReadonlyArray<[string, string, number, string, number]> = [
  ['POST', '/oauth2/token', 200, 'public', 0.0004],
  ['POST', '/oauth2/token', 200, 'public', 0.001],
  ['POST', '/oauth2/token', 200, 'public', 0.0031],
  ['POST', '/oauth2/token', 400, 'public', 0.7],
  ['GET', '/clients/:id', 200, 'admin', 12],
  ['GET', 'unmatched', 404, 'public', 0.02],
  ['GET', '/a "quoted"\\path', 200, 'admin', 5],
  // Label sets that share a route, then a listener, then a method, first seen in mixed order.
  ['GET', '/oauth2/token', 200, 'admin', 0.002],
  ['POST', '/clients/:id', 201, 'admin', 0.01],
  ['GET', '/oauth2/token', 200, 'public', 0.0001],
  ['POST', '/oauth2/token', 200, 'admin', 0.03],
  ['GET', '/clients/:id', 404, 'admin', 0.004],
];

describe('HttpDurationHistogram', () => {
  it('exposes what prom-client’s Histogram exposed for the same observations, in text and JSON', async () => {
    const before = new Registry();
    const reference = promClientHistogram(before);
    const after = new Registry();
    const histogram = new HttpDurationHistogram();
    after.registerMetric(histogram as unknown as Metric);
    for (const [method, route, status, listener, seconds] of OBSERVATIONS) {
      reference.observe({ method, route, status_code: status, listener }, seconds);
      histogram.seriesFor(method, route, status, listener).observe(seconds);
    }
    expect(await after.metrics()).toBe(await before.metrics());
    expect(await after.getMetricsAsJSON()).toEqual(await before.getMetricsAsJSON());
  });

  it('keeps one series per label set and starts again after a reset', async () => {
    const registry = new Registry();
    const histogram = new HttpDurationHistogram();
    registry.registerMetric(histogram as unknown as Metric);
    const series = histogram.seriesFor('GET', '/x', 200, 'admin');
    expect(histogram.seriesFor('GET', '/x', 200, 'admin')).toBe(series);
    // Each label on its own makes another series, and each is found again.
    const others = [
      histogram.seriesFor('POST', '/x', 200, 'admin'),
      histogram.seriesFor('GET', '/y', 200, 'admin'),
      histogram.seriesFor('GET', '/x', 404, 'admin'),
      histogram.seriesFor('GET', '/x', 200, 'public'),
    ];
    expect(new Set([series, ...others]).size).toBe(5);
    expect(histogram.seriesFor('POST', '/x', 200, 'admin')).toBe(others[0]);
    expect(histogram.seriesFor('GET', '/y', 200, 'admin')).toBe(others[1]);
    expect(histogram.seriesFor('GET', '/x', 404, 'admin')).toBe(others[2]);
    expect(histogram.seriesFor('GET', '/x', 200, 'public')).toBe(others[3]);
    series.observe(0.002);
    expect(await registry.metrics()).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/x",status_code="200",listener="admin"\} 1/,
    );
    registry.resetMetrics();
    expect(await registry.metrics()).not.toMatch(/_count/);
  });
});
