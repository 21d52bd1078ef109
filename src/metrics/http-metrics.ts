import { register, type Metric } from 'prom-client';

export const HTTP_DURATION_METRIC = 'http_request_duration_seconds';
const HELP = 'Duration of HTTP requests by route template, method, status and listener';
const BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export interface HttpDurationLabels {
  readonly method: string;
  readonly route: string;
  readonly status_code: number;
  readonly listener: string;
}

/** One label set's counts: `observe` is what every request pays, so it only adds numbers. */
export class HttpDurationSeries {
  /** Per bucket, not cumulative; the last slot counts what is above the largest bound. */
  readonly counts = new Float64Array(BUCKETS.length + 1);
  sum = 0;
  count = 0;

  constructor(readonly labels: HttpDurationLabels) {}

  observe(seconds: number): void {
    let bucket = 0;
    while (bucket < BUCKETS.length && seconds > BUCKETS[bucket]!) bucket += 1;
    this.counts[bucket]! += 1;
    this.sum += seconds;
    this.count += 1;
  }
}

/** What prom-client's registry reads from a metric (the shape its own Histogram exports). */
interface ExportedValue {
  readonly value: number;
  readonly labels: Record<string, string | number>;
  readonly metricName: string;
  readonly sharedLabels?: HttpDurationLabels;
  /** prom-client's Histogram sets it (null) on buckets; exemplars are not enabled. */
  readonly exemplar?: null;
}

interface ExportedMetric {
  readonly name: string;
  readonly help: string;
  readonly type: 'histogram';
  readonly aggregator: 'sum';
  readonly values: ExportedValue[];
}

/**
 * `http_request_duration_seconds`, observed on every request. prom-client's Histogram validates and
 * hashes the label set on each observation, even through a child from `labels()` (about 0.6 µs in
 * isolation, several µs per request in the service once it shares the process with everything else);
 * here a request adds to the counts of a series it looked up once, and the work of export is done
 * at scrape time.
 *
 * It is registered in prom-client's default registry as a metric object: the registry asks it for
 * `getForPromString()` (text exposition) or `get()` (JSON) and `reset()`, and gets the values in the
 * shape prom-client's Histogram produces, so `/metrics/prometheus` shows the same series, labels
 * (in the order `le`, method, route, status_code, listener), buckets, `_sum` and `_count` as before.
 */
export class HttpDurationHistogram {
  readonly name = HTTP_DURATION_METRIC;
  readonly help = HELP;
  readonly type = 'histogram' as const;
  readonly aggregator = 'sum' as const;
  /**
   * Series by route, then listener, method and status. Nested maps of the label values themselves
   * rather than one map of a joined key: the route templates, listener names and method names are
   * the same string objects on every request, whose hashes V8 keeps, while a joined key was a new
   * string to build and hash on every request.
   */
  private byRoute = new Map<string, Map<string, Map<string, Map<number, HttpDurationSeries>>>>();
  /** Every series, in creation order, for the export. */
  private all: HttpDurationSeries[] = [];

  /** The series of one label set, created on first use. */
  seriesFor(method: string, route: string, statusCode: number, listener: string): HttpDurationSeries {
    return this.byRoute.get(route)?.get(listener)?.get(method)?.get(statusCode) ?? this.create(method, route, statusCode, listener);
  }

  reset(): void {
    this.byRoute = new Map();
    this.all = [];
  }

  private create(method: string, route: string, statusCode: number, listener: string): HttpDurationSeries {
    const series = new HttpDurationSeries({ method, route, status_code: statusCode, listener });
    const ofListener = madeIn(madeIn(this.byRoute, route), listener);
    madeIn(ofListener, method).set(statusCode, series);
    this.all.push(series);
    return series;
  }

  getForPromString(): Promise<ExportedMetric> {
    const bucketName = `${this.name}_bucket`;
    const values: ExportedValue[] = [];
    for (const series of this.all) {
      let cumulative = 0;
      BUCKETS.forEach((bound, index) => {
        cumulative += series.counts[index]!;
        values.push({ labels: { le: bound }, sharedLabels: series.labels, value: cumulative, metricName: bucketName, exemplar: null });
      });
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: series.labels, value: series.count, metricName: bucketName, exemplar: null },
        { labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${this.name}_count` },
      );
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }

  async get(): Promise<ExportedMetric> {
    const metric = await this.getForPromString();
    return {
      ...metric,
      values: metric.values.map(({ sharedLabels, labels, ...value }) => ({ ...value, labels: { ...labels, ...sharedLabels } })),
    };
  }
}

/** The map under `key` in `parent`, made on first use. */
function madeIn<V>(parent: Map<string, Map<string, V>>, key: string): Map<string, V>;
function madeIn<V>(parent: Map<string, Map<number, V>>, key: string): Map<number, V>;
function madeIn<V>(parent: Map<string, Map<string | number, V>>, key: string): Map<string | number, V> {
  let found = parent.get(key);
  if (found === undefined) {
    found = new Map();
    parent.set(key, found);
  }
  return found;
}

/** One histogram per process (the prom-client registry is process-global), registered on first use. */
export function httpDurationHistogram(): HttpDurationHistogram {
  const existing = register.getSingleMetric(HTTP_DURATION_METRIC) as unknown;
  if (existing instanceof HttpDurationHistogram) return existing;
  const histogram = new HttpDurationHistogram();
  // The registry's typings list prom-client's own classes; it only uses the members implemented above.
  register.registerMetric(histogram as unknown as Metric);
  return histogram;
}
