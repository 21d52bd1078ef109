import { processCounter, type ProcessCounter } from '../metrics/index.js';

/**
 * `decisions_total{rule, outcome, listener}`: one count per decision, on the decision API and the
 * proxy. Rule ids come from configuration and admins, so the label sets stay bounded by the rules in
 * force.
 */
export class DecisionMetrics {
  private readonly counter: ProcessCounter<'rule' | 'outcome' | 'listener'> = processCounter(
    'decisions_total',
    'Access decisions by rule, outcome and listener',
    ['rule', 'outcome', 'listener'],
  );

  count(rule: string, outcome: string, listener: string): void {
    this.counter.series(rule, outcome, listener).inc();
  }
}
