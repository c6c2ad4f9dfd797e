import { generateObject, streamObject } from 'ai';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFidelityFixture, type FidelityFixture } from '../helpers/fidelity-fixture.js';

// Structured output in every direction: OpenAI's response_format (chat and Responses), Claude's
// output_config.format and Gemini's responseSchema reach every other protocol as its own structured
// output — Claude's native one on models that have it, else a forced tool whose input comes back as
// the answer's text — streaming and not, billed on the upstream's usage.
describe('structured output across formats', () => {
  let f: FidelityFixture;
  beforeAll(async () => {
    f = await startFidelityFixture();
  });
  afterAll(async () => {
    await f?.close();
  });

  const weather = z.object({ city: z.string(), temperature: z.number(), sunny: z.boolean() });
  const SAMPLE = { city: 'sample', temperature: 4.5, sunny: true };
  const jsonSchema = {
    type: 'object',
    properties: { city: { type: 'string' }, temperature: { type: 'number', minimum: -90 }, sunny: { type: 'boolean' } },
    required: ['city', 'temperature', 'sunny'],
    additionalProperties: false,
  };

  /** streamObject produces nothing until its stream is read. */
  const finalObject = async (stream: { partialObjectStream: AsyncIterable<unknown>; object: Promise<unknown> }) => {
    let partials = 0;
    for await (const _ of stream.partialObjectStream) partials++;
    expect(partials).toBeGreaterThan(0);
    return stream.object;
  };
  const billed = async (prompt: number, completion: number) => {
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens]).toEqual([prompt, completion]);
  };
  const billedClaude = () => billed(f.claude.lastUsage!.input_tokens, f.claude.lastUsage!.output_tokens);
  const billedGemini = () => {
    const u = f.gemini.lastUsage!;
    return billed(u.promptTokenCount, u.candidatesTokenCount + (u.thoughtsTokenCount ?? 0));
  };
  const billedOpenAI = () => billed(f.chat.lastUsage!.prompt_tokens, f.chat.lastUsage!.completion_tokens);

  describe('OpenAI clients', () => {
    it('to a Claude model with structured outputs: output_config.format, streaming and not', async () => {
      const { object } = await generateObject({
        model: f.sdk.openai.chat('claude-sonnet-4-5'),
        schema: weather,
        prompt: 'Weather?',
      });
      expect(object).toEqual(SAMPLE);
      const sent = f.claude.requests.at(-1)!.body;
      expect(sent.output_config.format).toMatchObject({
        type: 'json_schema',
        schema: { type: 'object', additionalProperties: false },
      });
      expect(sent.tools).toBeUndefined();
      await billedClaude();

      const stream = streamObject({ model: f.sdk.openai.chat('claude-sonnet-4-5'), schema: weather, prompt: 'Weather?' });
      expect(await finalObject(stream)).toEqual(SAMPLE);
      expect(f.claude.requests.at(-1)!.body.stream).toBe(true);
      await billedClaude();
    });

    it('to an older Claude model: a forced tool whose input is the answer, streaming and not', async () => {
      const answer = await f.openai().chat.completions.create({
        model: 'claude-sonnet-4-20250514',
        messages: [{ role: 'user', content: 'Weather?' }],
        response_format: { type: 'json_schema', json_schema: { name: 'weather', schema: jsonSchema } },
      });
      expect(answer.choices[0]!.finish_reason).toBe('stop');
      expect(answer.choices[0]!.message.tool_calls).toBeUndefined();
      expect(JSON.parse(answer.choices[0]!.message.content!)).toEqual(SAMPLE);
      const sent = f.claude.requests.at(-1)!.body;
      expect(sent.output_config).toBeUndefined();
      expect(sent.tool_choice).toEqual({ type: 'tool', name: sent.tools[0].name });
      await billedClaude();

      const model = new ChatOpenAI({
        model: 'claude-sonnet-4-20250514',
        apiKey: f.key,
        configuration: { baseURL: `${f.tg.url}/v1` },
      });
      const structured = model.withStructuredOutput(weather, { method: 'jsonSchema' });
      expect(await structured.invoke('Weather?')).toEqual(SAMPLE);

      const stream = streamObject({ model: f.sdk.openai.chat('claude-sonnet-4-20250514'), schema: weather, prompt: 'Weather?' });
      expect(await finalObject(stream)).toEqual(SAMPLE);
      await billedClaude();
    });

    it('JSON mode to Claude and a schema to Gemini', async () => {
      const json = await f.openai().chat.completions.create({
        model: 'claude-sonnet-4-5',
        messages: [{ role: 'user', content: 'Answer in JSON.' }],
        response_format: { type: 'json_object' },
      });
      expect(JSON.parse(json.choices[0]!.message.content!)).toEqual({});

      const { object } = await generateObject({
        model: f.sdk.openai.chat('gemini-2.5-flash'),
        schema: weather,
        prompt: 'Weather?',
      });
      expect(object).toEqual(SAMPLE);
      expect(f.gemini.requests.at(-1)!.body.generationConfig).toMatchObject({ responseMimeType: 'application/json' });
      await billedGemini();
    });

    it('the Responses API’s text.format to Claude', async () => {
      const response = await f.openai().responses.create({
        model: 'claude-sonnet-4-20250514',
        input: 'Weather?',
        text: { format: { type: 'json_schema', name: 'weather', schema: jsonSchema } },
      });
      expect(JSON.parse(response.output_text)).toEqual(SAMPLE);
      await billedClaude();
    });
  });

  describe('Claude clients', () => {
    it('output_config.format to an OpenAI channel, streaming and not', async () => {
      const message = await f.anthropic.messages.create({
        model: 'gpt-4.1',
        max_tokens: 256,
        messages: [{ role: 'user', content: 'Weather?' }],
        output_config: { format: { type: 'json_schema', schema: jsonSchema } },
      });
      expect(message.content[0]!.type).toBe('text');
      expect(JSON.parse((message.content[0] as { text: string }).text)).toEqual(SAMPLE);
      expect(f.chat.requests.at(-1)!.body.response_format).toEqual({
        type: 'json_schema',
        json_schema: { name: 'response', schema: jsonSchema },
      });
      await billedOpenAI();

      const options = { anthropic: { structuredOutputMode: 'outputFormat' as const } };
      const stream = streamObject({
        model: f.sdk.anthropic('gpt-4.1'),
        schema: weather,
        prompt: 'Weather?',
        providerOptions: options,
      });
      expect(await finalObject(stream)).toEqual(SAMPLE);
      expect(f.chat.requests.at(-1)!.body.response_format.type).toBe('json_schema');
      await billedOpenAI();
    });

    it('output_config.format to a Gemini channel', async () => {
      const options = { anthropic: { structuredOutputMode: 'outputFormat' as const } };
      const { object } = await generateObject({
        model: f.sdk.anthropic('gemini-2.5-flash'),
        schema: weather,
        prompt: 'Weather?',
        providerOptions: options,
      });
      expect(object).toEqual(SAMPLE);
      expect(f.gemini.requests.at(-1)!.body.generationConfig.responseSchema).toMatchObject({ type: 'OBJECT' });
      await billedGemini();
    });
  });

  describe('Gemini clients', () => {
    const config = { responseMimeType: 'application/json', responseJsonSchema: jsonSchema };

    it('responseJsonSchema to Claude (native and forced tool), streaming and not', async () => {
      const answer = await f.google.models.generateContent({ model: 'claude-sonnet-4-5', contents: 'Weather?', config });
      expect(JSON.parse(answer.text!)).toEqual(SAMPLE);
      expect(f.claude.requests.at(-1)!.body.output_config.format.type).toBe('json_schema');
      await billedClaude();

      const stream = await f.google.models.generateContentStream({
        model: 'claude-sonnet-4-20250514',
        contents: 'Weather?',
        config,
      });
      let text = '';
      for await (const chunk of stream) text += chunk.text ?? '';
      expect(JSON.parse(text)).toEqual(SAMPLE);
      expect(f.claude.requests.at(-1)!.body.tool_choice.type).toBe('tool');
      await billedClaude();
    });

    it('responseSchema to an OpenAI channel, and the AI SDK’s Google provider to Claude', async () => {
      const answer = await f.google.models.generateContent({
        model: 'gpt-4.1',
        contents: 'Weather?',
        config: {
          responseMimeType: 'application/json',
          responseSchema: { type: 'OBJECT', properties: { city: { type: 'STRING' } } },
        },
      });
      expect(JSON.parse(answer.text!)).toEqual({ city: 'sample' });
      expect(f.chat.requests.at(-1)!.body.response_format.type).toBe('json_schema');
      await billedOpenAI();

      const { object } = await generateObject({
        model: f.sdk.google('claude-sonnet-4-20250514'),
        schema: weather,
        prompt: 'Weather?',
      });
      expect(object).toEqual(SAMPLE);
      await billedClaude();
    });
  });
});
