import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

describe('more OpenAI endpoints and Azure', () => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    await f.root.put('/api/option/', {
      key: 'ModelRatio',
      value: JSON.stringify({ ...ratios, 'omni-moderation-latest': 0.1, 'tts-1': 7.5, 'azure-model': 1 }),
    });
    await f.addChannel({ name: 'more', models: 'dall-e-3,omni-moderation-latest,tts-1' });
  });
  afterAll(async () => f?.close());

  it('prices image generation per image with the fixed price', async () => {
    const images = await f.openai().images.generate({ model: 'dall-e-3', prompt: 'a sea otter', n: 2 });
    expect(images.data).toHaveLength(2);
    const log = await f.lastLog();
    // dall-e-3: 0.04 USD per image × 500000 quota per USD × 2 images
    expect(log.quota).toBe(40_000);
    expect(JSON.parse(log.other ?? '{}').model_price).toBe(0.04);
  });

  it('counts moderation input locally when the upstream reports no usage', async () => {
    const result = await f.openai().moderations.create({ model: 'omni-moderation-latest', input: 'I want to hug a sea otter' });
    expect(result.results[0]?.flagged).toBe(false);
    const log = await f.lastLog();
    expect(log.prompt_tokens).toBeGreaterThan(3);
    expect(JSON.parse(log.other ?? '{}').local_count).toBe(true);
  });

  it('pipes speech audio through unchanged', async () => {
    const speech = await f.openai().audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello there' });
    const bytes = Buffer.from(await speech.arrayBuffer());
    expect(bytes.length).toBe(4096);
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xfb]));
    expect((await f.lastLog()).model_name).toBe('tts-1');
  });

  it('reaches an Azure channel at its deployment URL with the api-key header', async () => {
    await f.addChannel({ type: 3, name: 'azure', key: 'azure-secret', models: 'azure-model', other: '2024-10-21', priority: 50 });
    await f.openai().chat.completions.create({ model: 'azure-model', messages: [{ role: 'user', content: 'hi' }] });
    const sent = f.upstream.requests.at(-1)!;
    expect(sent.url).toBe('/openai/deployments/azure-model/chat/completions?api-version=2024-10-21');
    expect(sent.headers['api-key']).toBe('azure-secret');
    expect(sent.headers.authorization).toBeUndefined();
  });
});
