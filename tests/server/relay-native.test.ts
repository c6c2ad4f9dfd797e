import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, streamChat, type RelayFixture } from '../helpers/relay-fixture.js';
import { startReplayServer, type ReplayServer } from '../helpers/upstreams/replay.js';

// OpenAI clients reaching Claude (14) and Gemini (24) channels through the converters.
describe('OpenAI chat to native Claude and Gemini channels', () => {
  let f: RelayFixture;
  let claude: ReplayServer;
  let gemini: ReplayServer;
  let claudeChannel: number;
  let geminiChannel: number;
  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    claude = await startReplayServer('claude', [
      {
        path: /^\/v1\/messages$/,
        fixture: (r) => ((r.body as { stream?: boolean }).stream ? 'stream-text.chunks.txt' : 'message-text.json'),
      },
    ]);
    gemini = await startReplayServer('gemini', [
      { path: /:streamGenerateContent$/, fixture: () => 'stream-text.chunks.txt' },
      { path: /:generateContent$/, fixture: () => 'text.json' },
    ]);
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    await f.root.put('/api/option/', {
      key: 'ModelRatio',
      value: JSON.stringify({ ...ratios, 'claude-sonnet-4-20250514': 1.5, 'gemini-2.5-flash': 0.15 }),
    });
    claudeChannel = await f.addChannel({
      type: 14,
      name: 'claude',
      key: 'sk-ant-test',
      base_url: claude.url,
      models: 'claude-sonnet-4-20250514',
    });
    geminiChannel = await f.addChannel({
      type: 24,
      name: 'gemini',
      key: 'AIza-test',
      base_url: gemini.url,
      models: 'gemini-2.5-flash',
    });
  });
  afterAll(async () => {
    await f?.close();
    await claude?.close();
    await gemini?.close();
  });

  const ask = (model: string, extra: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {}) =>
    f.openai().chat.completions.create({
      model,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      ...extra,
    });

  it('converts a chat request to Claude Messages and the answer back, billing Claude usage', async () => {
    const answer = await ask('claude-sonnet-4-20250514', { max_tokens: 100 });
    expect(answer.choices[0]?.message.content).toBe('Hello! How can I help you today?');
    expect(answer.choices[0]?.finish_reason).toBe('stop');
    const sent = claude.requests.at(-1)!;
    expect(sent.headers['x-api-key']).toBe('sk-ant-test');
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.body).toMatchObject({ model: 'claude-sonnet-4-20250514', system: 'Be brief.', max_tokens: 100, stream: false });
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens]).toEqual([12, 12]);
    // claude-sonnet-4: ratio 1.5, completion ratio 5 → (12 + 12 × 5) × 1.5 = 108
    expect(log.quota).toBe(108);
  });

  it('streams Claude events as OpenAI chunks', async () => {
    const { text, usage } = await streamChat(f.openai(), 'claude-sonnet-4-20250514', 'Hi');
    expect(text).toBe('Hello! How can I help you today?');
    expect(usage?.completion_tokens).toBe(12);
    expect((await f.lastLog()).is_stream).toBe(1);
  });

  it('converts a chat request to Gemini generateContent and the answer back', async () => {
    const answer = await ask('gemini-2.5-flash');
    expect(answer.choices[0]?.message.content).toContain('Paris is the capital of France');
    const sent = gemini.requests.at(-1)!;
    expect(sent.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe('AIza-test');
    expect(sent.body).toMatchObject({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
    });
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens]).toEqual([14, 20]);
  });

  it('streams Gemini chunks as OpenAI chunks and bills thoughts as completion', async () => {
    const stream = await f
      .openai()
      .chat.completions.create({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'joke' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toContain('outstanding in his field');
    expect(gemini.requests.at(-1)!.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens]).toEqual([9, 17 + 386]);
  });

  it('tests Claude and Gemini channels through the same converters', async () => {
    for (const id of [claudeChannel, geminiChannel]) {
      const res = await f.root.get(`/api/channel/test/${id}`);
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: true });
    }
    expect(claude.requests.at(-1)!.body).toMatchObject({ max_tokens: 1, messages: [{ role: 'user' }] });
  });
});
