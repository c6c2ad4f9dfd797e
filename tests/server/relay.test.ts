import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAI_FIXTURES } from '../helpers/upstreams/openai.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

async function userQuota(f: RelayFixture): Promise<number> {
  const row = await f.tg.gateway.ctx.db.selectFrom('users').select('quota').where('id', '=', f.userId).executeTakeFirstOrThrow();
  return row.quota;
}

describe('relay with the official openai client', () => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
  });
  afterAll(async () => f?.close());

  it('relays a chat completion and bills its usage', async () => {
    const before = await userQuota(f);
    const answer = await f
      .openai()
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }] });
    expect(answer.choices[0]?.message.content).toBe(OPENAI_FIXTURES.chat.choices[0].message.content);
    expect(answer.usage?.total_tokens).toBe(29);
    // gpt-4o-mini: ratio 0.075, completion ratio 4 → (19 + 10 × 4) × 0.075 = 4.425 → 4
    const log = await f.lastLog();
    expect(log.type).toBe(2);
    expect(log.quota).toBe(4);
    expect(log.prompt_tokens).toBe(19);
    expect(log.completion_tokens).toBe(10);
    expect(await userQuota(f)).toBe(before - 4);
    const upstreamCall = f.upstream.requests.at(-1)!;
    expect(upstreamCall.url).toBe('/v1/chat/completions');
    expect(upstreamCall.headers.authorization).toBe('Bearer sk-upstream-good');
    const other = JSON.parse(log.other ?? '{}');
    expect(other.model_ratio).toBe(0.075);
    expect(other.completion_ratio).toBe(4);
  });

  it('streams chunk by chunk, asks upstream for usage and hides the usage chunk from a client that did not ask', async () => {
    const stream = await f
      .openai()
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    let text = '';
    let chunks = 0;
    let sawUsage = false;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) sawUsage = true;
    }
    expect(chunks).toBe(20);
    expect(text.startsWith('Hello! How can I assist you today?')).toBe(true);
    expect(sawUsage).toBe(false);
    expect(f.upstream.requests.at(-1)!.body.stream_options).toEqual({ include_usage: true });
    const log = await f.lastLog();
    expect(log.is_stream).toBe(1);
    expect(log.completion_tokens).toBe(18);
    expect(log.quota).toBe(Math.round((19 + 18 * 4) * 0.075));
  });

  it('passes the usage chunk to a client that asked for it', async () => {
    const stream = await f.openai().chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage?.completion_tokens).toBe(18);
  });

  it('counts tokens locally when the upstream gives no usage', async () => {
    const stream = await f
      .openai()
      .chat.completions.create({ model: 'no-usage', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    for await (const _ of stream) void _;
    const log = await f.lastLog();
    expect(log.completion_tokens).toBeGreaterThan(10);
    expect(JSON.parse(log.other ?? '{}').local_count).toBe(true);
  });

  it('relays legacy completions and embeddings', async () => {
    const c = await f.openai().completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say this is a test' });
    expect(c.choices[0]?.text).toContain('This is indeed a test.');
    const e = await f.openai().embeddings.create({ model: 'text-embedding-3-small', input: 'The food was delicious' });
    expect(e.data[0]?.embedding).toHaveLength(5);
    expect((await f.lastLog()).prompt_tokens).toBe(8);
  });

  it('passes /v1/responses through, streaming and not, and bills its usage', async () => {
    const answer = await f.openai().responses.create({ model: 'gpt-4o-mini', input: 'Tell me a story' });
    expect(answer.output_text).toContain('unicorn');
    expect(f.upstream.requests.at(-1)!.url).toBe('/v1/responses');
    let log = await f.lastLog();
    expect(log.prompt_tokens).toBe(36);
    expect(log.completion_tokens).toBe(87);
    const stream = await f.openai().responses.create({ model: 'gpt-4o-mini', input: 'Tell me a story', stream: true });
    let text = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
    expect(text).toBe('In a peaceful grove beneath a silver moon.');
    expect(f.upstream.requests.at(-1)!.body.stream_options).toBeUndefined();
    log = await f.lastLog();
    expect(log.is_stream).toBe(1);
    expect(log.completion_tokens).toBe(9);
    expect(log.quota).toBe(Math.round((12 + 9 * 4) * 0.075));
  });

  it('lists the models the token can reach', async () => {
    const list = await f.openai().models.list();
    const ids = list.data.map((m) => m.id);
    expect(ids).toContain('gpt-4o-mini');
    expect(ids).toContain('text-embedding-3-small');
  });

  it('answers a bad key, an unknown model and an upstream error as typed client errors', async () => {
    await expect(f.openai('sk-' + 'x'.repeat(48)).models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const unknown = f.openai().chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] });
    await expect(unknown).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(unknown).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    const bad = f.openai().chat.completions.create({ model: 'fail-400', messages: [{ role: 'user', content: 'x' }] });
    await expect(bad).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(bad).rejects.toMatchObject({ message: expect.stringContaining("Invalid value for 'messages'") });
  });

  it('refunds a failed request completely and logs the error', async () => {
    const before = await userQuota(f);
    const failing = f.openai().chat.completions.create({ model: 'fail-500', messages: [{ role: 'user', content: 'x' }] });
    await expect(failing).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    expect(await userQuota(f)).toBe(before);
    const log = await f.lastLog();
    expect(log.type).toBe(5);
  });
});

describe('relay billing limits', () => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await startRelayFixture('sqlite', { userQuota: 0 });
  });
  afterAll(async () => f?.close());

  it('refuses a user without quota', async () => {
    const call = f.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] });
    await expect(call).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    await expect(call).rejects.toMatchObject({ status: 429, code: 'insufficient_quota', type: 'insufficient_quota' });
  });
});
