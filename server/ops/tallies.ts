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
