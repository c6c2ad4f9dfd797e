/**
 * The time, in unix seconds, that subscription periods and spend caps are counted in. Each gateway
 * holds its own (ctx.clock), so a test can carry one gateway across a period's end without waiting
 * for it and without touching the process's time; everything else reads the system time.
 */
export class Clock {
  private offset = 0;

  now(): number {
    return Math.floor(Date.now() / 1000) + this.offset;
  }

  /** Moves this gateway's time forward by `seconds` (tests: crossing a reset boundary at will). */
  advance(seconds: number): void {
    this.offset += seconds;
  }
}
