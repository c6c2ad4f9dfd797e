import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFidelityFixture, type FidelityFixture } from '../helpers/fidelity-fixture.js';
import { standInTokens, stringsIn } from '../helpers/upstreams/model-behaviour.js';
import { countTokens } from '../../server/relay/metering/tokenizer.js';

/** A valid grey PNG of the given size (only its header matters to the counting). */
function png(width: number, height: number): string {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    return Buffer.concat([head, data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  const pixels = deflateSync(Buffer.alloc((width + 1) * 2));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]).toString(
    'base64',
  );
}

// Token counting: Claude's count_tokens and Gemini's :countTokens are answered by a channel of the
// client's own protocol when one serves the model (the provider's figure), otherwise counted locally
// — tools, system and images included. Counting is free: no log row, no charge.
describe('token counting', () => {
  let f: FidelityFixture;
  const tool = {
    name: 'get_weather',
    description: 'The weather in a city',
    input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
  };
  const messages = [{ role: 'user' as const, content: 'What is the weather in Paris today?' }];
  const logCount = async () =>
    Number(
      (
        await f.tg.gateway.ctx.db
          .selectFrom('logs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    f = await startFidelityFixture();
  });
  afterAll(async () => {
    await f?.close();
  });

  it('Claude count_tokens passes through to a Claude channel, tools and system included', async () => {
    const logs = await logCount();
    const system = 'You are a weather bot.';
    const counted = await f.anthropic.messages.countTokens({ model: 'claude-sonnet-4-5', system, tools: [tool], messages });
    const sent = f.claude.requests.at(-1)!;
    expect(sent.url).toBe('/v1/messages/count_tokens');
    expect(sent.body).toMatchObject({ model: 'claude-sonnet-4-5', system, tools: [tool], messages });
    expect(counted.input_tokens).toBe(standInTokens(stringsIn([system, messages, [tool]])));
    expect(await logCount()).toBe(logs);
  });

  it('counts locally for other channels: tools add their definitions and Claude’s tool prompt, images their size', async () => {
    const plain = await f.anthropic.messages.countTokens({ model: 'gpt-4.1', messages });
    expect(plain.input_tokens).toBe(await countTokens(messages[0]!.content));
    const withTools = await f.anthropic.messages.countTokens({ model: 'gpt-4.1', tools: [tool], messages });
    expect(withTools.input_tokens).toBe((await countTokens(`${messages[0]!.content}\n${JSON.stringify([tool])}`)) + 346);
    const withSystem = await f.anthropic.messages.countTokens({ model: 'gpt-4.1', system: 'Be brief.', messages });
    expect(withSystem.input_tokens).toBeGreaterThan(plain.input_tokens);
    const image = await f.anthropic.messages.countTokens({
      model: 'gpt-4.1',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png(800, 600) } },
            { type: 'text', text: 'What is the weather in Paris today?' },
          ],
        },
      ],
    });
    // Claude's rule: width × height / 750.
    expect(image.input_tokens).toBe(plain.input_tokens + 640);
  });

  it('Gemini :countTokens passes through to a Gemini channel and counts locally elsewhere', async () => {
    const logs = await logCount();
    const counted = await f.google.models.countTokens({
      model: 'gemini-2.5-flash',
      contents: 'What is the weather in Paris today?',
    });
    expect(f.gemini.requests.at(-1)!.url).toBe('/v1beta/models/gemini-2.5-flash:countTokens');
    expect(counted.totalTokens).toBe(standInTokens(['user', 'What is the weather in Paris today?']));

    const local = await f.google.models.countTokens({
      model: 'claude-sonnet-4-5',
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'What is the weather in Paris today?' },
            { inlineData: { mimeType: 'image/png', data: png(1000, 800) } },
          ],
        },
      ],
    });
    // Gemini's rule: 258 tokens a 768 × 768 tile.
    expect(local.totalTokens).toBe((await countTokens('What is the weather in Paris today?')) + 4 * 258);
    expect(await logCount()).toBe(logs);
  });

  it('refuses a countTokens body without contents in Google’s shape', async () => {
    const res = await fetch(`${f.tg.url}/v1beta/models/gemini-2.5-flash:countTokens?key=${f.key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nothing: true }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
  });
});
