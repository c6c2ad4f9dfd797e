/**
 * A sliding minute in one-second buckets: what was added during the last 60 seconds, the current
 * second included. The Redis store keeps the same buckets as hash fields (redis-limit-store.ts).
 */
export const WINDOW_SECONDS = 60;

export class SlidingMinute {
  private readonly seconds = new Float64Array(WINDOW_SECONDS).fill(-1);
  private readonly amounts = new Float64Array(WINDOW_SECONDS);

  /** Adds `amount` at `second` (Unix seconds). */
  add(second: number, amount: number): void {
    const slot = second % WINDOW_SECONDS;
    if (this.seconds[slot] !== second) {
      this.seconds[slot] = second;
      this.amounts[slot] = 0;
    }
    this.amounts[slot] = (this.amounts[slot] ?? 0) + amount;
  }

  /** The total added during the 60 seconds ending with `second`. */
  sum(second: number): number {
    let total = 0;
    for (let i = 0; i < WINDOW_SECONDS; i++) {
      const at = this.seconds[i] ?? -1;
      if (at > second - WINDOW_SECONDS && at <= second) total += this.amounts[i] ?? 0;
    }
    return total;
  }
}
