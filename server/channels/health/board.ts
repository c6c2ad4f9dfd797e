/**
 * The cool-downs of every channel and key, shared by the gateway processes. Each process reads its
 * own copy in memory (routing never waits on Redis); a change is applied here at once, announced on
 * the bus (topic `channel-health`, the entry itself as payload) and written to a Redis hash, from
 * which a process that starts, or whose subscription was cut off, loads the current ones. Without
 * Redis the copy in memory is the only one: one process.
 */
import type { Redis } from 'ioredis';
import type { Bus } from '../../cache/bus.js';

export interface Cooldown {
  /** Epoch ms the cool-down ends; from then the subject is half-open until one call decides. */
  until: number;
  /** Trips in a row: each doubles the next cool-down. */
  trips: number;
  trippedAt: number;
  /** The rule that tripped it. */
  rule: TripRule;
  /** Failures and calls in the window when it tripped. */
  failures: number;
  requests: number;
  /** The last error before it tripped, for the console. */
  reason: string;
  /** Epoch ms a half-open subject was closed again; 0 while it cools down or waits for its probe. */
  closedAt: number;
}

/** Too many errors in the window, too many in a row, or the half-open call failed. */
export type TripRule = 'error_rate' | 'consecutive' | 'probe_failed';

export const HEALTH_TOPIC = 'channel-health';
/** Redis keeps the hash this long after its last change: longer than any cool-down. */
const HASH_TTL_SECONDS = 86_400;

interface Message {
  subject: string;
  entry: Cooldown | null;
}

function isCooldown(value: unknown): value is Cooldown {
  const v = value as Partial<Cooldown> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.until === 'number' &&
    typeof v.trips === 'number' &&
    typeof v.trippedAt === 'number' &&
    typeof v.reason === 'string' &&
    typeof v.rule === 'string' &&
    typeof v.failures === 'number' &&
    typeof v.requests === 'number' &&
    typeof v.closedAt === 'number'
  );
}

export class CooldownBoard {
  private entries = new Map<string, Cooldown>();
  private readonly hashKey: string;

  constructor(
    private readonly bus: Bus,
    private readonly redis: Redis | null,
    prefix: string,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.hashKey = `${prefix}channel-health`;
    bus.on(HEALTH_TOPIC, (payload) => {
      if (payload === '') {
        this.load().catch(onError);
        return;
      }
      try {
        const message = JSON.parse(payload) as Message;
        if (message.entry === null) this.entries.delete(message.subject);
        else if (isCooldown(message.entry)) this.entries.set(message.subject, message.entry);
      } catch (err) {
        onError(err);
      }
    });
  }

  /** Reads the shared cool-downs (Redis); with none configured there is nothing to read. */
  async load(): Promise<void> {
    if (!this.redis) return;
    const stored = await this.redis.hgetall(this.hashKey);
    const next = new Map<string, Cooldown>();
    for (const [subject, text] of Object.entries(stored)) {
      try {
        const entry: unknown = JSON.parse(text);
        if (isCooldown(entry)) next.set(subject, entry);
      } catch {
        // A damaged entry is dropped: the subject counts as healthy.
      }
    }
    this.entries = next;
  }

  get(subject: string): Cooldown | undefined {
    return this.entries.get(subject);
  }

  subjects(): IterableIterator<[string, Cooldown]> {
    return this.entries.entries();
  }

  set(subject: string, entry: Cooldown): void {
    this.entries.set(subject, entry);
    this.announce({ subject, entry });
    if (this.redis) {
      this.redis
        .multi()
        .hset(this.hashKey, subject, JSON.stringify(entry))
        .expire(this.hashKey, HASH_TTL_SECONDS)
        .exec()
        .catch(this.onError);
    }
  }

  delete(subject: string): void {
    if (!this.entries.delete(subject)) return;
    this.announce({ subject, entry: null });
    this.redis?.hdel(this.hashKey, subject).catch(this.onError);
  }

  private announce(message: Message): void {
    // The bus tells this process synchronously too; the entry is already in place, so that is a no-op.
    this.bus.publish(HEALTH_TOPIC, JSON.stringify(message));
  }
}
