/**
 * Recent latency per channel in this process: an exponentially weighted moving average of the
 * time to the first token (a whole answer's time when it is not streamed). A sample older than
 * the health window is forgotten, so a channel that was slow once is measured afresh.
 */
const ALPHA = 0.3;

interface Sample {
  ewmaMs: number;
  at: number;
}

export class LatencyTable {
  private readonly samples = new Map<number, Sample>();

  add(channelId: number, ms: number, now: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    const prev = this.samples.get(channelId);
    const ewmaMs = prev ? prev.ewmaMs + ALPHA * (ms - prev.ewmaMs) : ms;
    this.samples.set(channelId, { ewmaMs, at: now });
  }

  /** The channel's recent latency, or undefined when it has no sample within `maxAgeMs`. */
  get(channelId: number, now: number, maxAgeMs: number): number | undefined {
    const s = this.samples.get(channelId);
    return s && now - s.at <= maxAgeMs ? s.ewmaMs : undefined;
  }
}

/** The least share a slow or failing channel keeps, so its figures stay fresh. */
const FLOOR = 0.02;
/** Latencies under this count as equal: noise between fast channels moves no traffic. */
const LATENCY_GRAIN_MS = 20;

/**
 * The factor (FLOOR–1) a channel's weight is multiplied by: the fastest channel of the tier over
 * this one's latency, times its success rate. Channels without figures keep their whole weight.
 */
export function latencyFactor(ms: number | undefined, fastestMs: number | undefined, errorShare: number): number {
  const speed =
    ms === undefined || fastestMs === undefined ? 1 : Math.max(fastestMs, LATENCY_GRAIN_MS) / Math.max(ms, LATENCY_GRAIN_MS);
  return Math.max(FLOOR, Math.min(1, speed) * (1 - Math.min(1, Math.max(0, errorShare))));
}
