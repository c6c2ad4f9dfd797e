import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryKv, RedisKv, type KvStore } from '../../server/cache/kv.js';
import { REDIS_URL, redisAvailable } from '../helpers/databases.js';

const withRedis = await redisAvailable();
const redis = withRedis ? new Redis(REDIS_URL) : null;
afterAll(() => redis?.disconnect());

const stores: Array<[string, () => KvStore]> = [['memory', () => new MemoryKv()]];
if (redis) stores.push(['redis', () => new RedisKv(redis, `test-kv-${randomUUID()}:`)]);

describe.each(stores)('kv store (%s)', (_name, make) => {
  it('keeps values until they expire and deletes them', async () => {
    const kv = make();
    await kv.set('a', '1', 60);
    expect(await kv.get('a')).toBe('1');
    await kv.delete('a');
    expect(await kv.get('a')).toBeNull();
  });

  it('lets exactly one of many concurrent setIfAbsent calls win', async () => {
    const kv = make();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => kv.setIfAbsent('claim', String(i), 60)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await kv.get('claim')).toBe(String(results.indexOf(true)));
    expect(await kv.setIfAbsent('claim', 'late', 60)).toBe(false);
  });
});
