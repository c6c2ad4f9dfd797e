import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

/**
 * Cache invalidation messages between gateway processes. `publish` tells this process at once and,
 * with Redis, every other process; handlers receive the topic's payload (e.g. a changed id), and
 * the empty payload when everything may have changed.
 */
export class Bus {
  private readonly local = new EventEmitter();
  private readonly instance = randomUUID();
  private subscriber: Redis | null = null;

  private constructor(
    private readonly redis: Redis | null,
    private readonly channel: string,
  ) {
    this.local.setMaxListeners(100);
  }

  static async create(redis: Redis | null, prefix: string): Promise<Bus> {
    const bus = new Bus(redis, `${prefix}bus`);
    if (redis) {
      // Subscribed again by hand on reconnection: ioredis's own resubscription leaves its promise
      // uncaught, and a connection closed meanwhile (a shutdown during a Redis blip) would end the
      // process with an unhandled rejection.
      const subscriber = redis.duplicate({ autoResubscribe: false });
      bus.subscriber = subscriber;
      await subscriber.subscribe(bus.channel);
      subscriber.on('message', (_channel: string, message: string) => {
        const { topic, payload, origin } = JSON.parse(message) as { topic: string; payload: string; origin: string };
        // Our own messages were delivered locally when published.
        if (origin !== bus.instance) bus.local.emit(topic, payload);
      });
      // The first 'ready' came before the subscription: any later one is a reconnection, and the
      // messages sent while this process was cut off are lost.
      subscriber.on('ready', () => {
        subscriber.subscribe(bus.channel).catch(() => undefined);
        bus.forgetAll();
      });
    }
    return bus;
  }

  /** Tells every handler that anything may have changed (the empty payload: every id). */
  private forgetAll(): void {
    for (const topic of this.local.eventNames()) this.local.emit(topic, '');
  }

  on(topic: string, handler: (payload: string) => void): void {
    this.local.on(topic, handler);
  }

  publish(topic: string, payload = ''): void {
    this.local.emit(topic, payload);
    this.redis?.publish(this.channel, JSON.stringify({ topic, payload, origin: this.instance })).catch(() => undefined);
  }

  close(): void {
    this.subscriber?.disconnect();
    this.local.removeAllListeners();
  }
}
