/**
 * The cache invalidation bus over Redis: a message published by one process reaches the others, and
 * a process whose subscription was cut off (a Redis restart, a network blip) forgets everything it
 * cached once it is back, since the messages of that time are lost.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { Bus } from '../../server/cache/bus.js';
import { REDIS_URL, redisAvailable } from '../helpers/databases.js';

const withRedis = await redisAvailable();

describe.skipIf(!withRedis)('the bus over Redis', () => {
  const name = `bus-test-${randomUUID()}`;
  const prefix = `${name}:`;
  // The subscriber a bus makes is a duplicate of this connection and carries its name.
  const connections = [new Redis(REDIS_URL, { connectionName: name }), new Redis(REDIS_URL, { connectionName: name })];
  const buses: Bus[] = [];
  afterAll(() => {
    for (const b of buses) b.close();
    for (const c of connections) c.disconnect();
  });

  const next = (bus: Bus, topic: string) => new Promise<string>((resolve) => bus.on(topic, resolve));

  it('carries a message to the other process and tells a reconnected one to forget everything', async () => {
    const [a, b] = await Promise.all(connections.map((c) => Bus.create(c, prefix)));
    buses.push(a!, b!);
    const got = next(b!, 'token');
    a!.publish('token', 'abc');
    expect(await got).toBe('abc');

    const tokens = next(b!, 'token');
    const users = next(b!, 'user');
    // Cut every subscriber of this test off; ioredis reconnects and subscribes again.
    const list = (await connections[0]!.client('LIST')) as string;
    const ids = list
      .split('\n')
      .filter((line) => line.includes(`name=${name}`) && / sub=[1-9]/.test(line))
      .map((line) => /id=(\d+)/.exec(line)![1]!);
    expect(ids).toHaveLength(2);
    for (const id of ids) await connections[0]!.client('KILL', 'ID', id);
    expect(await tokens).toBe('');
    expect(await users).toBe('');
    // And it hears the others again.
    const again = next(b!, 'channel');
    a!.publish('channel', '7');
    expect(await again).toBe('7');
  });
});
