/**
 * Cohere API v2 converters (chat, embed, rerank), replayed from tests/fixtures/providers/cohere/.
 * Pure unit tests.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../server/relay/wire/events.js';
import { SseParser } from '../../../server/relay/wire/sse.js';
import {
  cohereErrorMessage,
  convertCohereChatAnswer,
  convertToCohereChat,
} from '../../../server/relay/providers/cohere/convert-cohere.js';
import { createCohereStreamParser } from '../../../server/relay/providers/cohere/cohere-stream.js';
import {
  convertCohereEmbedAnswer,
  convertCohereRerankAnswer,
  convertToCohereEmbed,
  convertToCohereRerank,
} from '../../../server/relay/providers/cohere/cohere-embed-rerank.js';
import { cohere } from '../../../server/relay/providers/cohere/index.js';

const dir = new URL('../../fixtures/providers/cohere/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, dir), 'utf8');
const json = (name: string): any => JSON.parse(text(name));

function replay(name: string): StreamEvent[] {
  const sse = new SseParser();
  const parser = createCohereStreamParser('command-a-03-2025');
  const events = [...sse.push(new TextEncoder().encode(text(name))), ...sse.end()];
  return events.flatMap((e) => parser.push(e));
}

const texts = (events: StreamEvent[], type: 'text' | 'reasoning') =>
  events
    .filter((e) => e.type === type)
    .map((e) => (e as { text: string }).text)
    .join('');

describe('OpenAI chat → Cohere /v2/chat', () => {
  it('keeps v2 message shapes and renames sampling settings', () => {
    const body = convertToCohereChat(
      {
        model: 'command-a-03-2025',
        messages: [
          { role: 'developer', content: 'Be brief.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Weather here?' },
              { type: 'image_url', image_url: { url: 'https://x.test/sky.png' } },
            ],
          },
          {
            role: 'assistant',
            content: '',
            reasoning_content: 'Need the weather tool.',
            tool_calls: [{ id: 'w1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Toronto"}' } }],
          },
          { role: 'tool', tool_call_id: 'w1', content: [{ type: 'text', text: '21°C' }] },
          { role: 'assistant', content: '' },
        ],
        max_completion_tokens: 200,
        temperature: 0.3,
        top_p: 0.8,
        top_k: 40,
        stop: ['###'],
        seed: 1,
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        response_format: { type: 'json_schema', json_schema: { name: 's', schema: { type: 'object' } } },
      },
      true,
    );
    expect(body).toEqual({
      model: 'command-a-03-2025',
      stream: true,
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather here?' },
            { type: 'image_url', image_url: { url: 'https://x.test/sky.png' } },
          ],
        },
        {
          role: 'assistant',
          tool_plan: 'Need the weather tool.',
          tool_calls: [{ id: 'w1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Toronto"}' } }],
        },
        { role: 'tool', tool_call_id: 'w1', content: '21°C' },
      ],
      max_tokens: 200,
      temperature: 0.3,
      p: 0.8,
      k: 40,
      seed: 1,
      stop_sequences: ['###'],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
      tool_choice: 'REQUIRED',
      response_format: { type: 'json_object', json_schema: { type: 'object' } },
    });
  });

  it('sends tool_choice none as NONE and auto as nothing', () => {
    const tools = [{ type: 'function', function: { name: 'f' } }];
    const messages = [{ role: 'user', content: 'x' }];
    expect(convertToCohereChat({ model: 'm', messages, tools, tool_choice: 'none' }, false).tool_choice).toBe('NONE');
    expect(convertToCohereChat({ model: 'm', messages, tools, tool_choice: 'auto' }, false)).not.toHaveProperty('tool_choice');
  });
});

describe('Cohere chat answers → OpenAI', () => {
  it('converts text and bills the billed units', () => {
    const { completion, usage } = convertCohereChatAnswer(json('chat.json'), 'command-a-03-2025');
    expect(completion).toMatchObject({
      id: 'c14c80c3-18eb-4519-9460-6c92edd8cfb4',
      model: 'command-a-03-2025',
      choices: [
        {
          message: { role: 'assistant', content: 'LLMs are neural networks trained on large amounts of text.' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 17, completion_tokens: 12 },
    });
    expect(usage).toEqual({ promptTokens: 17, completionTokens: 12 });
  });

  it('converts tool calls, with the tool plan as reasoning', () => {
    const { completion } = convertCohereChatAnswer(json('chat-tool-call.json'), 'command-a-03-2025');
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        reasoning_content: 'I will look up the weather in Toronto.',
        tool_calls: [
          {
            id: 'get_weather_1byjy32y4hvq',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"Toronto"}' },
          },
        ],
      },
    });
  });

  it('streams text deltas, then usage and finish from message-end', () => {
    const events = replay('chat-stream.chunks.txt');
    expect(events[0]).toMatchObject({ type: 'start', id: 'a8fc192e-4bb8-4e15-ae1f-a174e8b02ae8', model: 'command-a-03-2025' });
    expect(texts(events, 'text')).toBe('LLMs are neural networks.');
    expect(events.slice(-2)).toEqual([
      { type: 'usage', usage: { promptTokens: 9, completionTokens: 5 } },
      { type: 'finish', index: 0, reason: 'stop' },
    ]);
  });

  it('streams the tool plan as reasoning and tool calls piece by piece', () => {
    const events = replay('chat-stream-tool-call.chunks.txt');
    expect(texts(events, 'reasoning')).toBe('I will check the weather.');
    const calls = events.filter((e) => e.type === 'tool_call');
    expect(calls[0]).toEqual({
      type: 'tool_call',
      index: 0,
      callIndex: 0,
      id: 'get_weather_nsz5zm3w56q3',
      name: 'get_weather',
      arguments: '',
    });
    expect(calls.map((c) => (c as { arguments: string }).arguments).join('')).toBe('{"location":"Toronto"}');
    expect(events.at(-1)).toEqual({ type: 'finish', index: 0, reason: 'tool_calls' });
  });

  it('reads the message of an error body', () => {
    expect(cohereErrorMessage(text('error-invalid-token.json'), 401)).toBe('invalid api token');
  });
});

describe('Cohere embed and rerank', () => {
  it('converts an embeddings request, with a default input_type', () => {
    expect(convertToCohereEmbed({ model: 'embed-v4.0', input: 'hello', dimensions: 256, encoding_format: 'base64' })).toEqual({
      ok: true,
      body: {
        model: 'embed-v4.0',
        texts: ['hello'],
        input_type: 'search_document',
        embedding_types: ['float'],
        output_dimension: 256,
      },
    });
    expect(convertToCohereEmbed({ model: 'm', input: ['q'], input_type: 'search_query' })).toMatchObject({
      body: { input_type: 'search_query' },
    });
    expect(convertToCohereEmbed({ model: 'm', input: 42 }).ok).toBe(false);
  });

  it('answers embeddings as an OpenAI list with the billed input tokens', () => {
    const { completion, usage } = convertCohereEmbedAnswer(json('embed.json'), 'embed-v4.0', {});
    expect(usage).toEqual({ promptTokens: 2, completionTokens: 0 });
    expect(completion.data.map((d) => d.embedding)).toEqual(json('embed.json').embeddings.float);
  });

  it('converts rerank both ways, taking document texts from the request', () => {
    const request = {
      model: 'rerank-v3.5',
      query: 'capital of the US?',
      documents: ['Carson City is in Nevada.', { text: 'Paris is in France.' }, 'Washington, D.C. is the capital.'],
      top_n: 2,
    };
    expect(convertToCohereRerank(request)).toEqual({
      ok: true,
      body: {
        model: 'rerank-v3.5',
        query: 'capital of the US?',
        documents: ['Carson City is in Nevada.', 'Paris is in France.', 'Washington, D.C. is the capital.'],
        top_n: 2,
      },
    });
    const { completion, usage } = convertCohereRerankAnswer(json('rerank.json'), 'rerank-v3.5', request);
    expect(usage).toBeNull();
    expect(completion).toEqual({
      id: '07734bd2-2473-4f07-94e1-0d9f0e6843cf',
      model: 'rerank-v3.5',
      results: [
        { index: 2, relevance_score: 0.999071, document: { text: 'Washington, D.C. is the capital.' } },
        { index: 0, relevance_score: 0.32713068, document: { text: 'Carson City is in Nevada.' } },
      ],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
    expect(
      convertCohereRerankAnswer(json('rerank.json'), 'r', { ...request, return_documents: false }).completion.results[0],
    ).toEqual({
      index: 2,
      relevance_score: 0.999071,
    });
    expect(convertToCohereRerank({ model: 'r', documents: ['a'] }).ok).toBe(false);
  });
});

describe('Cohere provider', () => {
  it('targets the v2 paths with a Bearer key', () => {
    const channel = { key: 'co-key', base_url: '', other: null, openai_organization: null };
    expect(cohere.target(channel, 'rerank', 'rerank-v3.5')).toEqual({
      url: 'https://api.cohere.ai/v2/rerank',
      headers: { authorization: 'Bearer co-key' },
    });
    expect(['chat.completions', 'embeddings', 'rerank', 'images.generations'].map((e) => cohere.supports(e as never))).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });
});
