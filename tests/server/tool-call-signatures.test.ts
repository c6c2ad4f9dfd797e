import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryKv, RedisKv, type KvStore } from '../../server/cache/kv.js';
import {
  restoreSignatures,
  sealCompletion,
  sealedKey,
  sealedParser,
  SignatureSealer,
} from '../../server/relay/wire/gemini/tool-call-signatures.js';
import type { StreamEvent } from '../../server/relay/wire/events.js';
import { REDIS_URL, redisAvailable } from '../helpers/databases.js';

// Gemini's thought signatures kept under the tool-call ids the gateway hands out, and put back when
// a client echoes an id: in one process's memory, or in Redis where another process finds them.
const withRedis = await redisAvailable();
const connections = withRedis ? [new Redis(REDIS_URL), new Redis(REDIS_URL)] : [];
afterAll(() => connections.forEach((c) => c.disconnect()));

/** Two stores standing for two gateway processes: the same one in memory, two connections to Redis. */
const pairs: Array<[string, () => [KvStore, KvStore]]> = [
  [
    'memory',
    () => {
      const kv = new MemoryKv();
      return [kv, kv];
    },
  ],
];
if (withRedis) {
  pairs.push([
    'redis, two processes',
    () => {
      const prefix = `test-sig-${randomUUID()}:`;
      return [new RedisKv(connections[0]!, prefix), new RedisKv(connections[1]!, prefix)];
    },
  ]);
}

const echo = (id: string, extra?: object) => ({
  model: 'gemini-3-pro-preview',
  messages: [
    { role: 'user', content: 'Go' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: 'f', arguments: '{}' }, ...extra }],
    },
    { role: 'tool', tool_call_id: id, content: 'ok' },
  ],
});
const restoredSignature = (body: ReturnType<typeof echo>) =>
  (body.messages[1] as { tool_calls: Array<{ extra_content?: { google?: { thought_signature?: string } } }> }).tool_calls[0]!
    .extra_content?.google?.thought_signature;

describe.each(pairs)('tool-call signatures (%s)', (_name, make) => {
  it('seals a signed call of a whole answer and restores its signature from the echoed id', async () => {
    const [here, there] = make();
    const sealer = new SignatureSealer(here);
    const completion = {
      choices: [
        {
          message: {
            tool_calls: [
              {
                id: 'g1',
                type: 'function',
                function: { name: 'f', arguments: '{}' },
                extra_content: { google: { thought_signature: 'S'.repeat(900) } },
              },
              { id: 'g2', type: 'function', function: { name: 'g', arguments: '{}' } },
            ],
          },
        },
      ],
    };
    sealCompletion(completion, sealer);
    await sealer.settle();
    const [signed, unsigned] = completion.choices[0]!.message.tool_calls;
    expect(signed!.id).toMatch(/^call_gs1_[A-Za-z0-9_-]{22}$/);
    expect(signed!.id.length).toBeLessThanOrEqual(40);
    expect(unsigned!.id).toBe('g2');

    const body = echo(signed!.id);
    const restored = await restoreSignatures(body, there);
    expect(restoredSignature(restored)).toBe('S'.repeat(900));
    expect(restoredSignature(body)).toBeUndefined();
  });

  it('seals a streamed call on its first piece', async () => {
    const [here, there] = make();
    const sealer = new SignatureSealer(here);
    const events: StreamEvent[] = [
      { type: 'tool_call', index: 0, callIndex: 0, id: 'g1', name: 'f', arguments: '{}', signature: 'SIG-1' },
      { type: 'tool_call', index: 0, callIndex: 1, id: 'g2', name: 'g', arguments: '{}' },
      { type: 'text', index: 0, text: 'hi' },
    ];
    const parser = sealedParser({ push: (n: number) => [events[n]!] }, sealer);
    const out = [0, 1, 2].flatMap((n) => parser.push(n));
    await sealer.settle();
    expect(out.slice(1)).toEqual(events.slice(1));
    const first = out[0] as Extract<StreamEvent, { type: 'tool_call' }>;
    expect(sealedKey(first.id)).not.toBeNull();
    expect(restoredSignature(await restoreSignatures(echo(first.id!), there))).toBe('SIG-1');
  });

  it('keeps a signature the client sent, and leaves ids it cannot restore alone', async () => {
    const [here, there] = make();
    const sealer = new SignatureSealer(here);
    const id = sealer.seal('SIG-STORED');
    await sealer.settle();
    const own = await restoreSignatures(echo(id, { extra_content: { google: { thought_signature: 'SIG-OWN' } } }), there);
    expect(restoredSignature(own)).toBe('SIG-OWN');
    for (const other of ['call_abc', `call_gs1_${'A'.repeat(22)}`, `call_gs1_${'A'.repeat(23)}`]) {
      const body = echo(other);
      expect(await restoreSignatures(body, there)).toBe(body);
    }
  });
});

describe('tool-call signatures with a failing store', () => {
  const broken: KvStore = {
    get: () => Promise.reject(new Error('down')),
    set: () => Promise.reject(new Error('down')),
    setIfAbsent: () => Promise.reject(new Error('down')),
    delete: () => Promise.reject(new Error('down')),
  };
  it('answers anyway, and a lookup that fails counts as a miss (the converter sends the skip value)', async () => {
    const sealer = new SignatureSealer(broken);
    expect(sealedKey(sealer.seal('SIG'))).not.toBeNull();
    await expect(sealer.settle()).resolves.toBeUndefined();
    const body = echo(`call_gs1_${'B'.repeat(22)}`);
    expect(await restoreSignatures(body, broken)).toBe(body);
  });
});
