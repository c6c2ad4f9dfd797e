import { createServer, request, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { usageFromClaude } from '../../server/relay/wire/claude/convert-claude-response.js';
import { usageFromGemini } from '../../server/relay/wire/gemini/convert-gemini-response.js';

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

  it('tells a client that asked to close the connection after its stream that it will, and closes it', async () => {
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    const answer = await new Promise<{ connection: string | undefined; text: string; closed: boolean }>((resolve, reject) => {
      const req = request(`${f.tg.url}/v1/chat/completions`, {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${f.key}`, connection: 'close' },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => req.socket?.once('close', () => resolve({ connection: res.headers.connection, text, closed: true })));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(answer.connection).toBe('close');
    expect(answer.text).toContain('data: [DONE]');
    expect(answer.closed).toBe(true);
  });

  it('sends a stream the upstream wrote at once as one chunk, once its call is billed', async () => {
    const before = (await f.lastLog()).id;
    const newest = () =>
      f.tg.gateway.ctx.logDb.selectFrom('logs').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    // Each chunk of a chunked answer is one `data` event here: the events before [DONE] wait with
    // it (one write, waking the client once) rather than going out ahead of it.
    const { chunks, logged } = await new Promise<{ chunks: string[]; logged: Promise<{ id: number }> }>((resolve, reject) => {
      const req = request(`${f.tg.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${f.key}` },
      });
      req.on('response', (res) => {
        const got: string[] = [];
        let first: Promise<{ id: number }> | null = null;
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          // The call's log row is read as the first bytes arrive: it was written before them.
          first ??= newest();
          got.push(c);
        });
        res.on('end', () => resolve({ chunks: got, logged: first! }));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatch(/^data: \{.*"chat\.completion\.chunk"/);
    expect(chunks[0]!.endsWith('data: [DONE]\n\n')).toBe(true);
    expect((await logged).id).toBeGreaterThan(before);
  });
});

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../fixtures/providers/${name}`, import.meta.url)));

/** `bytes` cut every `size` bytes (through events and multi-byte characters alike), or per event. */
function pieces(bytes: Buffer, size: number | 'event', sep = '\n\n'): Buffer[] {
  if (size === 'event') {
    const text = bytes.toString('utf8');
    return text
      .split(sep)
      .filter((e) => e !== '')
      .map((e) => Buffer.from(e + sep));
  }
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

/** The data of each event in an SSE text. */
const dataOf = (text: string) =>
  text
    .split(/\r?\n\r?\n/)
    .map((e) => /^data: (.*)$/m.exec(e)?.[1])
    .filter((d): d is string => d !== undefined && d !== '[DONE]')
    .map((d) => JSON.parse(d) as Record<string, any>);

// Claude and Gemini streams to channels of their own protocol pass through the same way: the bytes
// the upstream wrote, however they were cut, reach the client unchanged, billed on the usage the
// stream carried (Claude: message_start's counts updated by message_delta; Gemini: the last chunk's).
describe('same-format Claude and Gemini streams', () => {
  let f: RelayFixture;
  let server: Server;
  /** What the scripted upstream writes next, one write a piece, 2 ms apart. */
  let next: Buffer[] = [];
  let sent = Buffer.alloc(0);
  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        void (async () => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          sent = Buffer.concat(next);
          for (const piece of next) {
            res.write(piece);
            await new Promise((r) => setTimeout(r, 2));
          }
          res.end();
        })();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    await f.root.put('/api/option/', {
      key: 'ModelRatio',
      value: JSON.stringify({ ...ratios, 'claude-sonnet-4-20250514': 1.5, 'gemini-2.5-flash': 0.15, 'gpt-4.1-scripted': 1 }),
    });
    await f.addChannel({ type: 1, name: 'openai-scripted', key: 'sk-up', base_url: url, models: 'gpt-4.1-scripted' });
    await f.addChannel({ type: 14, name: 'claude', key: 'sk-ant-up', base_url: url, models: 'claude-sonnet-4-20250514' });
    await f.addChannel({ type: 24, name: 'gemini', key: 'AIza-up', base_url: url, models: 'gemini-2.5-flash' });
  });
  afterAll(async () => {
    await f?.close();
    await new Promise((r) => server?.close(r));
  });

  const claude = async (chunks: Buffer[]) => {
    next = chunks;
    const res = await fetch(`${f.tg.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': f.key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: 'claude-sonnet-4-20250514',
        max_tokens: 256,
        stream: true,
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };
  const gemini = async (chunks: Buffer[]) => {
    next = chunks;
    const res = await fetch(`${f.tg.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': f.key },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'joke' }] }] }),
    });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };

  const openai = async (path: string, chunks: Buffer[], extra: Record<string, unknown> = {}) => {
    next = chunks;
    const res = await fetch(`${f.tg.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${f.key}` },
      body: JSON.stringify({ model: 'gpt-4.1-scripted', stream: true, ...extra }),
    });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };
  /** OpenAI's chat stream as sent when usage was asked for, with multi-byte text. */
  const chatStream = () =>
    fixture('openai/chat-completion-stream.chunks.txt').toString('utf8').replace('"content":"Hello"', '"content":"你好 🌤 Hello"');

  /** Claude's usage as its stream reports it: message_start's, each message_delta's fields on top. */
  const claudeUsage = (bytes: Buffer) => {
    const events = dataOf(bytes.toString('utf8'));
    const usage = { ...events.find((e) => e.type === 'message_start')!.message.usage };
    for (const e of events.filter((e) => e.type === 'message_delta')) Object.assign(usage, e.usage);
    return usageFromClaude(usage);
  };

  for (const name of ['stream-text', 'stream-tool-use', 'stream-thinking'])
    for (const size of ['event', 7, 64, 1000] as const)
      it(`passes Claude's ${name} cut ${size === 'event' ? 'per event' : `every ${size} bytes`} byte for byte, billed on its usage`, async () => {
        const got = await claude(pieces(fixture(`claude/${name}.chunks.txt`), size));
        expect(got.equals(sent)).toBe(true);
        const usage = claudeUsage(sent);
        const log = await f.lastLog();
        expect([log.prompt_tokens, log.completion_tokens]).toEqual([usage.promptTokens, usage.completionTokens]);
        expect(log.quota).toBeGreaterThan(0);
      });

  it('bills a Claude stream with multi-byte text cut inside its characters exactly, comments kept', async () => {
    // A parsing relay would drop the comment line: it reaches the client only when passed through.
    const text = fixture('claude/stream-text.chunks.txt')
      .toString('utf8')
      .replace(/"text":"([^"]+)"/g, '"text":"$1 — 天气晴朗 🌤"')
      .replace('\n\nevent: content_block_start', '\n\n: keep-alive\n\nevent: content_block_start');
    expect(text).toContain(': keep-alive');
    const got = await claude(pieces(Buffer.from(text), 5));
    expect(got.toString('utf8')).toBe(text);
    const usage = claudeUsage(got);
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens]).toEqual([usage.promptTokens, usage.completionTokens]);
  });

  it('still reads every event of a Claude stream when its answers are checked for listed words, and cuts it', async () => {
    const set = async (key: string, value: string) =>
      expect((await f.root.put('/api/option/', { key, value })).body.success).toBe(true);
    await set('SensitiveWords', 'san francisco');
    await set('CheckSensitiveEnabled', 'true');
    await set('CheckSensitiveOnCompletionEnabled', 'true');
    try {
      const got = (await claude(pieces(fixture('claude/stream-tool-use.chunks.txt'), 64))).toString('utf8');
      const events = dataOf(got);
      const text = events
        .filter((e) => e.type === 'content_block_delta')
        .map((e) => e.delta.text ?? '')
        .join('');
      expect(text).toBe('Let me check');
      expect(events.at(-2)).toMatchObject({ type: 'message_delta', delta: { stop_reason: 'refusal' } });
      expect(events.at(-1)!.type).toBe('message_stop');
      expect(got).not.toContain('get_weather');
    } finally {
      await set('CheckSensitiveOnCompletionEnabled', 'false');
      await set('CheckSensitiveEnabled', 'false');
      await set('SensitiveWords', '');
    }
  });

  // 1000 bytes and the whole stream at once: chunks where stripped, read and passed events mix.
  for (const size of ['event', 7, 64, 1000, 1 << 20] as const) {
    it(`passes OpenAI's chat stream cut ${size === 'event' ? 'per event' : `every ${size} bytes`} to a client that asked for usage byte for byte`, async () => {
      const text = chatStream();
      const got = await openai('/v1/chat/completions', pieces(Buffer.from(text), size), {
        messages: [{ role: 'user', content: 'Hi' }],
        stream_options: { include_usage: true },
      });
      expect(got.toString('utf8')).toBe(text);
      const usage = dataOf(text).find((c) => c.usage)!.usage;
      const log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens]).toEqual([usage.prompt_tokens, usage.completion_tokens]);
    });

    it(`strips the usage the gateway asked for from OpenAI's chat stream cut ${size === 'event' ? 'per event' : `every ${size} bytes`}`, async () => {
      const text = chatStream();
      const got = await openai('/v1/chat/completions', pieces(Buffer.from(text), size), {
        messages: [{ role: 'user', content: 'Hi' }],
      });
      // What the upstream sends a client that asked no usage: no "usage":null, no usage chunk.
      const expected = text
        .split('\n\n')
        .filter((e) => !e.includes('"choices":[]'))
        .join('\n\n')
        .replaceAll(',"usage":null', '');
      expect(got.toString('utf8')).toBe(expected);
      const usage = dataOf(text).find((c) => c.usage)!.usage;
      const log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens]).toEqual([usage.prompt_tokens, usage.completion_tokens]);
    });

    it(`passes a Responses stream cut ${size === 'event' ? 'per event' : `every ${size} bytes`} byte for byte, billed on response.completed`, async () => {
      const text = fixture('openai/response-stream.chunks.txt').toString('utf8');
      const got = await openai('/v1/responses', pieces(Buffer.from(text), size), { input: 'Hi' });
      expect(got.toString('utf8')).toBe(text);
      const usage = dataOf(text).find((c) => c.type === 'response.completed')!.response.usage;
      const log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens]).toEqual([usage.input_tokens, usage.output_tokens]);
    });
  }

  it('reads a usage written with spaces around its colon, and passes "usage": null untouched', async () => {
    const text = chatStream().replaceAll('"usage":null', '"usage" : null').replace('"usage":{', '"usage" :\t{');
    expect(text).toContain('"usage" :\t{');
    const got = await openai('/v1/chat/completions', pieces(Buffer.from(text), 'event'), {
      messages: [{ role: 'user', content: 'Hi' }],
      stream_options: { include_usage: true },
    });
    expect(got.toString('utf8')).toBe(text);
    const log = await f.lastLog();
    expect(log.completion_tokens).toBe(dataOf(text).find((c) => c.usage)!.usage.completion_tokens);
    expect(JSON.parse(log.other ?? '{}').local_count).toBeUndefined();
  });

  for (const name of ['stream-text', 'stream-function-call'])
    for (const size of ['event', 11, 100] as const)
      it(`passes Gemini's ${name} (CRLF) cut ${size === 'event' ? 'per event' : `every ${size} bytes`} byte for byte, billed on the last usage`, async () => {
        const got = await gemini(pieces(fixture(`gemini/${name}.chunks.txt`), size, '\r\n\r\n'));
        expect(got.equals(sent)).toBe(true);
        const last = dataOf(sent.toString('utf8')).findLast((c) => c.usageMetadata)!;
        const usage = usageFromGemini(last.usageMetadata).billing;
        const log = await f.lastLog();
        expect([log.prompt_tokens, log.completion_tokens]).toEqual([usage.promptTokens, usage.completionTokens]);
      });

  it('passes a Gemini stream framed with LF too, billed on the last usage', async () => {
    const text = fixture('gemini/stream-text.chunks.txt').toString('utf8').replaceAll('\r\n', '\n');
    const got = await gemini(pieces(Buffer.from(text), 'event'));
    expect(got.toString('utf8')).toBe(text);
    const last = dataOf(text).findLast((c) => c.usageMetadata)!;
    const log = await f.lastLog();
    expect(log.completion_tokens).toBe(usageFromGemini(last.usageMetadata).billing.completionTokens);
  });

  it('counts a Gemini stream that reports no usage from its text, as the parsed path does', async () => {
    const text = fixture('gemini/stream-text.chunks.txt')
      .toString('utf8')
      .replace(/, "usageMetadata": \{[^{}]*(\{[^{}]*\}[^{}]*)*\}/g, '');
    expect(text).not.toContain('usageMetadata');
    await gemini(pieces(Buffer.from(text), 13, '\r\n\r\n'));
    const log = await f.lastLog();
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(JSON.parse(log.other ?? '{}').local_count).toBe(true);
  });
});
