import { streamText } from 'ai';
import { ChatAnthropic } from '@langchain/anthropic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFidelityFixture, type FidelityFixture } from '../helpers/fidelity-fixture.js';
import { claudePromptTokens } from '../../server/relay/wire/prompt-count.js';
import { countTokens, countTokensNow } from '../../server/relay/metering/tokenizer.js';

// Claude-format streams converted from OpenAI and Gemini upstreams announce the prompt's tokens in
// message_start (LangChain reads the input count there only): the upstream's figure when it came
// first (Gemini), else the local count, replaced by the upstream's figure in message_delta.
describe('converted Claude streams announce their input tokens', () => {
  let f: FidelityFixture;
  beforeAll(async () => {
    f = await startFidelityFixture();
    await countTokens('load the tokenizer');
  });
  afterAll(async () => {
    await f?.close();
  });

  const body = (model: string) => ({
    model,
    max_tokens: 64,
    stream: true,
    system: 'You answer in one short sentence.',
    messages: [{ role: 'user', content: 'Say hello to the whole wide world, please.' }],
  });
  const events = async (request: Record<string, unknown>) => {
    const res = await fetch(`${f.tg.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': f.key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(request),
    });
    expect(res.status).toBe(200);
    return (await res.text())
      .split('\n\n')
      .filter((e) => e.includes('data: '))
      .map((e) => JSON.parse(e.slice(e.indexOf('data: ') + 6)) as Record<string, any>);
  };

  it('from an OpenAI channel: the local count first, the upstream’s figure in message_delta', async () => {
    const request = body('gpt-4o-mini');
    const sent = await events(request);
    const local = claudePromptTokens(request, countTokensNow);
    expect(local).toBeGreaterThan(10);
    expect(sent[0]).toMatchObject({ type: 'message_start', message: { usage: { input_tokens: local } } });
    const delta = sent.find((e) => e.type === 'message_delta')!;
    expect(delta.usage).toMatchObject({ input_tokens: 19, output_tokens: 18 });
    expect((await f.lastLog()).prompt_tokens).toBe(19);
  });

  it('from a Gemini channel: the upstream’s figure from the start', async () => {
    const sent = await events(body('gemini-2.5-flash'));
    const upstream = f.gemini.lastUsage!;
    expect(sent[0]!.message.usage.input_tokens).toBe(upstream.promptTokenCount);
    const delta = sent.find((e) => e.type === 'message_delta')!;
    expect(delta.usage.input_tokens).toBe(upstream.promptTokenCount);
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens]).toEqual([
      upstream.promptTokenCount,
      upstream.candidatesTokenCount + (upstream.thoughtsTokenCount ?? 0),
    ]);
  });

  it('gives LangChain, the Anthropic SDK and the AI SDK a non-zero input count', async () => {
    const chat = new ChatAnthropic({ model: 'gpt-4o-mini', apiKey: f.key, anthropicApiUrl: f.tg.url, maxRetries: 0 });
    let input = 0;
    for await (const chunk of await chat.stream('Say hello to the whole wide world, please.')) {
      input += chunk.usage_metadata?.input_tokens ?? 0;
    }
    expect(input).toBeGreaterThan(5);

    const stream = f.anthropic.messages.stream({
      model: 'gemini-2.5-flash',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Say hello to the whole wide world, please.' }],
    });
    const final = await stream.finalMessage();
    expect(final.usage.input_tokens).toBe(f.gemini.lastUsage!.promptTokenCount);

    const result = streamText({ model: f.sdk.anthropic('gpt-4o-mini'), prompt: 'Hello there!' });
    await result.text;
    expect((await result.usage).inputTokens).toBe(19);
  });
});
