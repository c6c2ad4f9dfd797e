import { embed, embedMany } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFidelityFixture, type FidelityFixture } from '../helpers/fidelity-fixture.js';
import { countTokens } from '../../server/relay/metering/tokenizer.js';

// OpenAI-format embeddings (the openai SDK, the AI SDK's OpenAI provider) reaching a Gemini channel:
// one input → embedContent, a list → batchEmbedContents, answered in OpenAI's shape and billed on
// the locally counted prompt (Gemini reports no usage), the log row flagged as counted locally.
describe('OpenAI-format embeddings on a Gemini channel', () => {
  let f: FidelityFixture;
  beforeAll(async () => {
    f = await startFidelityFixture();
  });
  afterAll(async () => {
    await f?.close();
  });

  const billed = async (texts: string[]) => {
    const tokens = await countTokens(texts.join('\n'));
    const log = await f.lastLog();
    expect([log.type, log.model_name, log.prompt_tokens, log.completion_tokens]).toEqual([2, 'gemini-embedding-001', tokens, 0]);
    expect(log.quota).toBe(Math.max(1, Math.round(tokens * 0.5)));
    expect(await f.lastOther()).toMatchObject({ local_count: true });
    return tokens;
  };

  it('sends one input to embedContent and answers the vector (base64 as the SDK asks)', async () => {
    const answer = await f.openai().embeddings.create({ model: 'gemini-embedding-001', input: 'Hello world', dimensions: 4 });
    const sent = f.gemini.requests.at(-1)!;
    expect(sent.url).toBe('/v1beta/models/gemini-embedding-001:embedContent');
    expect(sent.body).toEqual({ content: { parts: [{ text: 'Hello world' }] }, outputDimensionality: 4 });
    expect(answer.data).toHaveLength(1);
    expect(answer.data[0]!.embedding).toHaveLength(4);
    const tokens = await billed(['Hello world']);
    expect(answer.usage).toEqual({ prompt_tokens: tokens, total_tokens: tokens });
  });

  it('sends a list to batchEmbedContents, each request naming the model', async () => {
    const texts = ['first text', 'second, longer text'];
    const answer = await f.openai().embeddings.create({ model: 'gemini-embedding-001', input: texts, encoding_format: 'float' });
    const sent = f.gemini.requests.at(-1)!;
    expect(sent.url).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(sent.body).toEqual({
      requests: texts.map((text) => ({ model: 'models/gemini-embedding-001', content: { parts: [{ text }] } })),
    });
    expect(answer.data.map((d) => d.index)).toEqual([0, 1]);
    expect(answer.data[0]!.embedding).not.toEqual(answer.data[1]!.embedding);
    await billed(texts);
  });

  it('serves the AI SDK’s embed and embedMany', async () => {
    const model = f.sdk.openai.embedding('gemini-embedding-001');
    const one = await embed({ model, value: 'sunny day at the beach' });
    expect(one.embedding).toHaveLength(8);
    // The AI SDK always sends a list, even of one.
    expect(f.gemini.requests.at(-1)!.url).toMatch(/:batchEmbedContents$/);
    expect(one.usage.tokens).toBe(await billed(['sunny day at the beach']));

    const many = await embedMany({ model, values: ['rainy day', 'snowy mountain peak'] });
    expect(many.embeddings).toHaveLength(2);
    expect(f.gemini.requests.at(-1)!.url).toMatch(/:batchEmbedContents$/);
    await billed(['rainy day', 'snowy mountain peak']);
  });

  it('refuses token-id input with a 400 before calling Gemini', async () => {
    const sent = f.gemini.requests.length;
    await expect(f.openai().embeddings.create({ model: 'gemini-embedding-001', input: [[1, 2, 3]] })).rejects.toMatchObject({
      status: 400,
    });
    expect(f.gemini.requests.length).toBe(sent);
  });
});
