import { Counter, Registry, type Metric } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ProcessCounter } from './process-counter.js';

const INCREMENTS: ReadonlyArray<[string, string, string]> = [
  ['api', 'allowed', 'admin'],
  ['api', 'allowed', 'admin'],
  ['api', 'forbidden', 'admin'],
  ['', 'no_match', 'proxy'],
  ['a "quoted"\\rule', 'allowed', 'proxy'],
  // Label sets that share a first value, then a second, first seen in mixed order.
  ['api', 'allowed', 'proxy'],
  ['docs', 'allowed', 'admin'],
  ['api', 'forbidden', 'admin'],
];

/** Both registries, each with a labelled counter and one without labels, fed the same increments. */
function fed(): { reference: Registry; ours: Registry; counter: ProcessCounter<'rule' | 'outcome' | 'listener'> } {
  const reference = new Registry();
  const promCounter = new Counter({
    name: 'things_total',
    help: 'Things',
    labelNames: ['rule', 'outcome', 'listener'],
    registers: [reference],
  });
  const promPlain = new Counter({ name: 'plain_total', help: 'Plain', registers: [reference] });
  const ours = new Registry();
  const counter = new ProcessCounter('things_total', 'Things', ['rule', 'outcome', 'listener'] as const);
  const plain = new ProcessCounter('plain_total', 'Plain', []);
  ours.registerMetric(counter as unknown as Metric);
  ours.registerMetric(plain as unknown as Metric);
  for (const [rule, outcome, listener] of INCREMENTS) {
    promCounter.inc({ rule, outcome, listener });
    counter.series(rule, outcome, listener).inc();
  }
  promPlain.inc();
  plain.series().inc();
  return { reference, ours, counter };
}

describe('ProcessCounter', () => {
  it('exposes what prom-client’s Counter exposes for the same increments, in text and JSON', async () => {
    const { reference, ours } = fed();
    expect(await ours.metrics()).toBe(await reference.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await reference.getMetricsAsJSON());
  });

  it('shows a counter without labels at 0 before any increment, as prom-client does', async () => {
    const reference = new Registry();
    new Counter({ name: 'idle_total', help: 'Idle', registers: [reference] });
    const ours = new Registry();
    ours.registerMetric(new ProcessCounter('idle_total', 'Idle', []) as unknown as Metric);
    expect(await ours.metrics()).toBe(await reference.metrics());
  });

  it('keeps one series per label set, refuses the wrong number of values, and starts again after a reset', async () => {
    const { ours, counter } = fed();
    const series = counter.series('api', 'allowed', 'admin');
    expect(counter.series('api', 'allowed', 'admin')).toBe(series);
    expect(series.value).toBe(2);
    expect(new Set([series, counter.series('api', 'allowed', 'proxy'), counter.series('api', 'forbidden', 'admin')]).size).toBe(3);
    expect(() => counter.series('api', 'allowed')).toThrow();
    ours.resetMetrics();
    expect(await ours.metrics()).not.toMatch(/things_total\{/);
    expect(await ours.metrics()).toMatch(/^plain_total 0$/m);
    expect(counter.series('api', 'allowed', 'admin').value).toBe(0);
  });
});
