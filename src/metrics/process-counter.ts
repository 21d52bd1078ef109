import { register, type Metric } from 'prom-client';

/** One label set's count. */
export class CounterSeries {
  value = 0;

  constructor(readonly labels: Readonly<Record<string, string>>) {}

  inc(): void {
    this.value += 1;
  }
}

/** A node of the series tree: label value → the next label's node, or the series at the last label. */
type SeriesTree = Map<string, SeriesTree | CounterSeries>;

/** What prom-client's registry reads from a counter (the shape its own Counter exports). */
interface ExportedCounter {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter';
  readonly aggregator: 'sum';
  readonly values: { readonly value: number; readonly labels: Readonly<Record<string, string>> }[];
}

/**
 * A counter of this process, served at `/metrics/prometheus`. prom-client's Counter validates and
 * hashes the label set on every increment, even through a child from `labels()` (a few thousand
 * instructions, which a decision pays per request); here an increment adds one to a series found by
 * its label values in nested maps (the values are usually the same string objects every time, whose
 * hashes V8 keeps), and the work of export is done at scrape time.
 *
 * It is registered in prom-client's default registry as a metric object: the registry asks it for
 * `getForPromString()` (text exposition) or `get()` (JSON) and `reset()`, and gets the values in the
 * shape prom-client's Counter produces, so the series, labels and values read as they did with it.
 */
export class ProcessCounter<Label extends string = never> {
  readonly type = 'counter' as const;
  readonly aggregator = 'sum' as const;
  private tree: SeriesTree = new Map();
  /** Every series, in creation order, for the export. */
  private all: CounterSeries[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly Label[],
  ) {
    // A counter without labels shows its one series (at 0) from the start, as prom-client's does.
    if (labelNames.length === 0) this.all.push(new CounterSeries({}));
  }

  /** The series of one label set, its values in the order of `labelNames`; made on first use. */
  series(...values: string[]): CounterSeries {
    if (values.length !== this.labelNames.length) {
      throw new Error(`${this.name} takes ${this.labelNames.length} label values, got ${values.length}`);
    }
    if (values.length === 0) return this.all[0]!;
    let node = this.tree;
    const last = values.length - 1;
    for (let index = 0; index < last; index += 1) {
      let next = node.get(values[index]!) as SeriesTree | undefined;
      if (next === undefined) {
        next = new Map();
        node.set(values[index]!, next);
      }
      node = next;
    }
    return (node.get(values[last]!) as CounterSeries | undefined) ?? this.create(node, values);
  }

  /** Drops every series (prom-client's `resetMetrics`); a counter without labels starts again at 0. */
  reset(): void {
    this.tree = new Map();
    this.all = this.labelNames.length === 0 ? [new CounterSeries({})] : [];
  }

  getForPromString(): Promise<ExportedCounter> {
    const values = this.all.map((series) => ({ value: series.value, labels: series.labels }));
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }

  get(): Promise<ExportedCounter> {
    return this.getForPromString();
  }

  private create(node: SeriesTree, values: readonly string[]): CounterSeries {
    const labels: Record<string, string> = {};
    this.labelNames.forEach((name, index) => (labels[name] = values[index]!));
    const series = new CounterSeries(labels);
    node.set(values[values.length - 1]!, series);
    this.all.push(series);
    return series;
  }
}

/**
 * The counter `name` of this process, registered in prom-client's default registry on first use (the
 * registry is process-global, and a test process boots many applications).
 */
export function processCounter<Label extends string = never>(
  name: string,
  help: string,
  labelNames: readonly Label[] = [],
): ProcessCounter<Label> {
  const existing = register.getSingleMetric(name) as unknown;
  if (existing instanceof ProcessCounter) return existing as ProcessCounter<Label>;
  const counter = new ProcessCounter<Label>(name, help, labelNames);
  // The registry's typings list prom-client's own classes; it only uses the members implemented above.
  register.registerMetric(counter as unknown as Metric);
  return counter;
}
