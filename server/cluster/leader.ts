/**
 * Which gateway process runs the background jobs (channel tests, task polling): the holder of the
 * `jobs` lease, renewed every third of its term and taken over by another process within a term of
 * the holder's death. A process started with NODE_TYPE=slave never claims it. Expiry compares each
 * process's own clock with the one that wrote the lease, so hosts' clocks must agree to well within a
 * term (NTP does).
 */
import type { Db } from '../db/index.js';
import { claimLease, releaseLease } from './repository.js';

const LEASE = 'jobs';

export interface Leadership {
  /** Whether this process holds the lease (as of its last renewal). */
  readonly isLeader: boolean;
}

export class LeaseHolder implements Leadership {
  isLeader = false;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly id: string,
    private readonly ttlMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  async start(): Promise<void> {
    await this.renew();
    this.timer = setInterval(() => void this.renew(), Math.max(200, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    if (this.isLeader) await releaseLease(this.db, LEASE, this.id).catch(this.onError);
    this.isLeader = false;
  }

  private renew(): Promise<void> {
    this.running ??= claimLease(this.db, LEASE, this.id, Date.now(), this.ttlMs)
      .then((held) => {
        this.isLeader = held;
      })
      .catch((err: unknown) => {
        // Without the database this process cannot know it still holds the lease.
        this.isLeader = false;
        this.onError(err);
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}

/** A process that opted out (NODE_TYPE=slave). */
export const NEVER_LEADER: Leadership = { isLeader: false };
