/**
 * The recent outcomes of one channel (or key) in this process: counts in ten time buckets that
 * together span the window, so adding an outcome and reading the rate cost a few steps whatever
 * the traffic. Failures in a row are counted apart, across buckets.
 */
const BUCKETS = 10;

export interface WindowStats {
  requests: number;
  failures: number;
}

export class OutcomeWindow {
  private readonly stamps = new Array<number>(BUCKETS).fill(-1);
  private readonly oks = new Array<number>(BUCKETS).fill(0);
  private readonly fails = new Array<number>(BUCKETS).fill(0);
  /** Failures since the last success. */
  consecutive = 0;

  add(ok: boolean, now: number, windowMs: number): void {
    const slot = Math.floor(now / (windowMs / BUCKETS));
    const i = slot % BUCKETS;
    if (this.stamps[i] !== slot) {
      this.stamps[i] = slot;
      this.oks[i] = 0;
      this.fails[i] = 0;
    }
    if (ok) {
      this.oks[i] = (this.oks[i] ?? 0) + 1;
      this.consecutive = 0;
    } else {
      this.fails[i] = (this.fails[i] ?? 0) + 1;
      this.consecutive += 1;
    }
  }

  stats(now: number, windowMs: number): WindowStats {
    const slot = Math.floor(now / (windowMs / BUCKETS));
    let requests = 0;
    let failures = 0;
    for (let i = 0; i < BUCKETS; i++) {
      const stamp = this.stamps[i] ?? -1;
      if (stamp < 0 || stamp <= slot - BUCKETS) continue;
      requests += (this.oks[i] ?? 0) + (this.fails[i] ?? 0);
      failures += this.fails[i] ?? 0;
    }
    return { requests, failures };
  }

  reset(): void {
    this.stamps.fill(-1);
    this.consecutive = 0;
  }
}
