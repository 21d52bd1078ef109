import { Counter, register } from 'prom-client';

const NAME = 'decisions_total';

/**
 * `decisions_total{rule, outcome}`: one count per decision, on the decision API and the proxy. The
 * counter lives in prom-client's default registry (served at /metrics/prometheus) and is created once
 * per process, however many applications a test boots.
 */
export class DecisionMetrics {
  private readonly counter: Counter<'rule' | 'outcome' | 'listener'>;
  private readonly children = new Map<string, { inc(): void }>();

  constructor() {
    this.counter =
      (register.getSingleMetric(NAME) as Counter<'rule' | 'outcome' | 'listener'> | undefined) ??
      new Counter({ name: NAME, help: 'Access decisions by rule, outcome and listener', labelNames: ['rule', 'outcome', 'listener'] });
  }

  count(rule: string, outcome: string, listener: string): void {
    const key = `${rule}\u0000${outcome}\u0000${listener}`;
    let child = this.children.get(key);
    if (child === undefined) {
      child = this.counter.labels(rule, outcome, listener);
      // Rule ids come from configuration and admins, so the label set stays bounded by the rules in force.
      if (this.children.size < 100_000) this.children.set(key, child);
    }
    child.inc();
  }
}
