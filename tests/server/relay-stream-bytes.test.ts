import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

// A stream in the client's own format reaches it as the upstream sent it, byte for byte (the relay
// passes such streams through, server/relay/call/pass-stream.ts), and is billed on the usage it carried.
describe('same-format streams', () => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
  });
  afterAll(async () => {
    await f?.close();
  });

  const stream = async (body: Record<string, unknown>) => {
    const res = await fetch(`${f.tg.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${f.key}` },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'Hello!' }], stream: true, ...body }),
    });
    expect(res.status).toBe(200);
    return new Uint8Array(await res.arrayBuffer());
  };
  const sentUpstream = () => new TextEncoder().encode(f.upstream.streamed.at(-1));

  it('reaches a client that asked for usage byte-identical to the upstream stream, billed on its usage', async () => {
    const got = await stream({ model: 'gpt-4o-mini', stream_options: { include_usage: true } });
    expect(Buffer.from(got).equals(Buffer.from(sentUpstream()))).toBe(true);
    const log = await f.lastLog();
    const line = new TextDecoder()
      .decode(got)
      .split('\n')
      .find((l) => l.includes('"usage":{'))!;
    const { usage } = JSON.parse(line.slice('data: '.length)) as { usage: Record<string, number> };
    expect(log.prompt_tokens).toBe(usage.prompt_tokens);
    expect(log.completion_tokens).toBe(usage.completion_tokens);
    expect(log.quota).toBeGreaterThan(0);
  });

  it('reaches a client that asked no usage as the upstream would have sent it to that client', async () => {
    const got = Buffer.from(await stream({ model: 'gpt-4o-mini' }));
    // The gateway asked for usage itself: the upstream sent "usage":null on each chunk and a usage chunk.
    expect(f.upstream.requests.at(-1)!.body.stream_options).toEqual({ include_usage: true });
    const direct = await fetch(`${f.upstream.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-upstream-good' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }], stream: true }),
    });
    expect(got.equals(Buffer.from(await direct.arrayBuffer()))).toBe(true);
    expect((await f.lastLog()).completion_tokens).toBeGreaterThan(0);
  });

  it('passes a stream arriving in many chunks whole and in order, billed on its usage', async () => {
    const got = await stream({ model: 'drip-60', stream_options: { include_usage: true } });
    expect(Buffer.from(got).equals(Buffer.from(sentUpstream()))).toBe(true);
    expect((await f.lastLog()).completion_tokens).toBe(120);
  });
});
