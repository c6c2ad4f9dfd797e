import { streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { createOpenAI } from '@ai-sdk/openai';

// OpenAI pass-through streams: the gateway asks the upstream for usage to bill it, but a client that
// did not ask sees the chunks the upstream would have sent it — no `"usage": null` on each, no usage
// chunk — while one that asked gets them as OpenAI sends them. Billing uses the upstream's usage.
describe('OpenAI pass-through streams keep the upstream’s chunks', () => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
  });
  afterAll(async () => {
    await f?.close();
  });

  const rawStream = async (body: Record<string, unknown>) => {
    const res = await fetch(`${f.tg.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${f.key}` },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }], stream: true, ...body }),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    return text
      .split('\n\n')
      .filter((e) => e.startsWith('data: {'))
      .map((e) => JSON.parse(e.slice(6)) as Record<string, unknown>);
  };

  it('adds nothing when the client did not ask for usage, yet bills the upstream’s usage', async () => {
    const chunks = await rawStream({});
    expect(f.upstream.requests.at(-1)!.body.stream_options).toEqual({ include_usage: true });
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.filter((c) => 'usage' in c)).toEqual([]);
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens]).toEqual([19, 18]);
    expect(JSON.parse(log.other ?? '{}').local_count).toBeUndefined();
  });

  it('forwards `usage: null` and the usage chunk when the client asked', async () => {
    const chunks = await rawStream({ stream_options: { include_usage: true } });
    const last = chunks.at(-1)!;
    expect(last.usage).toMatchObject({ prompt_tokens: 19, completion_tokens: 18 });
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  it('serves the openai SDK and the AI SDK unchanged', async () => {
    const stream = await f.openai().chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hello!' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) {
      expect(chunk).not.toHaveProperty('usage');
      text += chunk.choices[0]?.delta?.content ?? '';
    }
    expect(text).toContain('Hello! How can I assist you today?');

    const sdk = createOpenAI({ apiKey: f.key, baseURL: `${f.tg.url}/v1` });
    const result = streamText({ model: sdk.chat('gpt-4o-mini'), prompt: 'Hello!' });
    expect(await result.text).toContain('Hello! How can I assist you today?');
    // The AI SDK asks for usage itself: it gets the upstream's figures.
    expect((await result.usage).inputTokens).toBe(19);
    expect((await f.lastLog()).prompt_tokens).toBe(19);
  });
});
