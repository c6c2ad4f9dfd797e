import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startReplayServer, type ReplayServer } from '../helpers/upstreams/replay.js';

// Claude-format clients (the official SDK) on /v1/messages, to Claude channels and to OpenAI ones.
describe('Claude clients on /v1/messages', () => {
  let f: RelayFixture;
  let claude: ReplayServer;
  let anthropic: Anthropic;
  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    claude = await startReplayServer('claude', [
      {
        path: /^\/v1\/messages$/,
        fixture: (r) => ((r.body as { stream?: boolean }).stream ? 'stream-text.chunks.txt' : 'message-cache-usage.json'),
      },
    ]);
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    await f.root.put('/api/option/', {
      key: 'ModelRatio',
      value: JSON.stringify({ ...ratios, 'claude-sonnet-4-20250514': 1.5 }),
    });
    await f.addChannel({
      type: 14,
      name: 'claude',
      key: 'sk-ant-upstream',
      base_url: claude.url,
      models: 'claude-sonnet-4-20250514',
    });
    anthropic = new Anthropic({ apiKey: f.key, baseURL: f.tg.url, maxRetries: 0 });
  });
  afterAll(async () => {
    await f?.close();
    await claude?.close();
  });

  it('passes a Claude request through to a Claude channel and bills cache reads and writes', async () => {
    const message = await anthropic.messages.create(
      { model: 'claude-sonnet-4-20250514', max_tokens: 256, system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] },
      { headers: { 'anthropic-beta': 'prompt-caching-2024-07-31' } },
    );
    expect(message.type).toBe('message');
    const sent = claude.requests.at(-1)!;
    expect(sent.headers['x-api-key']).toBe('sk-ant-upstream');
    expect(sent.headers['anthropic-beta']).toBe('prompt-caching-2024-07-31');
    expect(sent.body).toEqual({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 256,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const log = await f.lastLog();
    const usage = message.usage;
    const cached = usage.cache_read_input_tokens ?? 0;
    const written = usage.cache_creation_input_tokens ?? 0;
    expect(log.prompt_tokens).toBe(usage.input_tokens + cached + written);
    const other = JSON.parse(log.other ?? '{}');
    expect(other.cache_tokens).toBe(cached);
    expect(other.cache_creation_tokens).toBe(written);
    // (input + cached × 0.1 + written × 1.25 + output × 5) × 1.5
    expect(log.quota).toBe(Math.round((usage.input_tokens + cached * 0.1 + written * 1.25 + usage.output_tokens * 5) * 1.5));
  });

  it('streams a Claude channel’s events to the client untouched', async () => {
    const stream = anthropic.messages.stream({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const text = await stream.finalText();
    expect(text).toBe('Hello! How can I help you today?');
    const log = await f.lastLog();
    expect(log.is_stream).toBe(1);
    expect(log.completion_tokens).toBe(12);
  });

  it('reaches an OpenAI channel, converted both ways, streaming and not', async () => {
    const message = await anthropic.messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hello!' }],
    });
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Hello! How can I assist you today?' });
    expect(message.stop_reason).toBe('end_turn');
    const sent = f.upstream.requests.at(-1)!;
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.body).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 64, messages: [{ role: 'user', content: 'Hello!' }] });

    const stream = anthropic.messages.stream({
      model: 'gpt-4o-mini',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hello!' }],
    });
    const text = await stream.finalText();
    expect(text.startsWith('Hello! How can I assist you today?')).toBe(true);
    const final = await stream.finalMessage();
    expect(final.usage.output_tokens).toBe(18);
    expect((await f.lastLog()).completion_tokens).toBe(18);
  });

  it('answers errors in Claude’s shape, typed by the SDK', async () => {
    const bad = new Anthropic({ apiKey: 'sk-' + 'y'.repeat(48), baseURL: f.tg.url, maxRetries: 0 });
    await expect(
      bad.messages.create({ model: 'gpt-4o-mini', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
    const res = await fetch(`${f.tg.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': f.key, 'content-type': 'application/json' },
      body: JSON.stringify({ max_tokens: 8, messages: [] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('counts a prompt’s tokens locally', async () => {
    const counted = await anthropic.messages.countTokens({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hello there, how are you?' }],
    });
    expect(counted.input_tokens).toBeGreaterThan(3);
  });

  it('lists models in Claude’s shape for Claude clients', async () => {
    const page = await anthropic.models.list();
    expect(page.data.map((m) => m.id)).toContain('claude-sonnet-4-20250514');
    expect(page.data[0]?.type).toBe('model');
  });
});
