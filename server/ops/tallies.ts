/**
 * Hot-path counts kept in plain numbers and handed to prom-client when it is scraped. prom-client
 * hashes and validates the label object on every inc(), and its labels() handles do the same on
 * each call; a series here is found by a string key once made, and costs an addition per call.
 */
import type { Counter, Gauge } from 'prom-client';

/** A counter's series by key; `labels` are made only when a key is first seen. */
export class CounterTally<L extends string> {
  private readonly series = new Map<string, { labels: Record<L, string>; pending: number }>();
  constructor(private readonly counter: Counter<L>) {}

  inc(key: string, labels: () => Record<L, string>, by = 1): void {
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { labels: labels(), pending: 0 }));
    s.pending += by;
  }

  /** Hands the counts to the counter (its collect hook: before each scrape). */
  flush(): void {
    for (const s of this.series.values()) {
      if (s.pending === 0) continue;
      this.counter.inc(s.labels, s.pending);
      s.pending = 0;
    }
  }
}

/** A gauge's values by a fixed set of label values, set on the gauge when scraped. */
export class GaugeTally<V extends string> {
  readonly now: Record<V, number>;
  constructor(
    private readonly label: string,
    values: readonly V[],
  ) {
    this.now = Object.fromEntries(values.map((v) => [v, 0])) as Record<V, number>;
  }

  flush(gauge: Gauge): void {
    for (const [value, n] of Object.entries(this.now)) gauge.set({ [this.label]: value }, n as number);
  }
}

/** One series of a histogram: counts per bucket (not cumulative; the last past every bound), sum, count. */
interface HistogramSeries<L extends string> {
  labels: Record<L, string>;
  counts: number[];
  sum: number;
  count: number;
}

/**
 * A histogram counted in plain numbers, its series found by a string key, and registered as a
 * metric of its own: the registry reads it through get(), in the shape prom-client's histograms give.
 */
export class HistogramTally<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, HistogramSeries<L>>();
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[],
  ) {}

  observe(key: string, labels: () => Record<L, string>, value: number): void {
    if (!Number.isFinite(value)) return;
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { labels: labels(), counts: this.buckets.map(() => 0).concat(0), sum: 0, count: 0 }));
    let bucket = 0;
    while (bucket < this.buckets.length && value > this.buckets[bucket]!) bucket++;
    s.counts[bucket]!++;
    s.sum += value;
    s.count++;
  }

  get() {
    const values: Array<{
      labels: Record<string, string | number>;
      sharedLabels: Record<string, string>;
      value: number;
      metricName: string;
    }> = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += s.counts[i]!;
        values.push({ labels: { le }, sharedLabels: s.labels, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.series.clear();
  }
}
