/**
 * Ollama's native API converters, replayed from tests/fixtures/providers/ollama/. Pure unit tests.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../server/relay/wire/events.js';
import {
  convertOllamaChatAnswer,
  convertOllamaEmbedAnswer,
  convertToOllamaChat,
  convertToOllamaEmbed,
} from '../../../server/relay/providers/ollama/convert-ollama.js';
import { createNdjsonDecoder, createOllamaStreamParser } from '../../../server/relay/providers/ollama/ollama-stream.js';
import { ollama } from '../../../server/relay/providers/ollama/index.js';

const dir = new URL('../../fixtures/providers/ollama/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, dir), 'utf8');
const json = (name: string): any => JSON.parse(text(name));

/** Decodes NDJSON fed in small slices (lines split across chunks), then parses the lines. */
function replay(raw: string, slice = 9): StreamEvent[] {
  const bytes = new TextEncoder().encode(raw);
  const decoder = createNdjsonDecoder();
  const parser = createOllamaStreamParser();
  const lines = [];
  for (let i = 0; i < bytes.length; i += slice) lines.push(...decoder.push(bytes.subarray(i, i + slice)));
  lines.push(...decoder.end());
  return lines.flatMap((l) => parser.push(l));
}

describe('OpenAI chat → Ollama /api/chat', () => {
  it('converts messages, inline images, tool calls and results, and sampling options', () => {
    const converted = convertToOllamaChat(
      {
        model: 'llama3.2',
        messages: [
          { role: 'system', content: 'Be brief.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            ],
          },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"cat"}' } }],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'a cat' },
        ],
        temperature: 0.2,
        top_p: 0.9,
        max_tokens: 64,
        stop: 'END',
        seed: 7,
        tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
        response_format: { type: 'json_object' },
      },
      false,
    );
    expect(converted).toEqual({
      ok: true,
      body: {
        model: 'llama3.2',
        stream: false,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'What is this?', images: ['iVBORw0KGgo='] },
          { role: 'assistant', content: '', tool_calls: [{ function: { name: 'lookup', arguments: { q: 'cat' } } }] },
          { role: 'tool', content: 'a cat', tool_name: 'lookup' },
        ],
        options: { temperature: 0.2, top_p: 0.9, seed: 7, num_predict: 64, stop: ['END'] },
        tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
        format: 'json',
      },
    });
  });

  it('passes a JSON schema as format and maps reasoning_effort to think', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const converted = convertToOllamaChat(
      {
        model: 'qwen3',
        messages: [{ role: 'user', content: 'hi' }],
        response_format: { type: 'json_schema', json_schema: { name: 'x', schema } },
        reasoning_effort: 'low',
      },
      true,
    );
    expect(converted.ok && converted.body).toMatchObject({ stream: true, format: schema, think: true });
  });

  it('refuses images given by link, which Ollama cannot fetch', () => {
    const converted = convertToOllamaChat(
      {
        model: 'llava',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png' } }] }],
      },
      false,
    );
    expect(converted).toEqual({ ok: false, message: expect.stringContaining('data: URLs') });
  });
});

describe('Ollama answers → OpenAI', () => {
  it('converts a whole answer with usage from the eval counters', () => {
    const { completion, usage } = convertOllamaChatAnswer(json('chat.json'), 'llama3.2');
    expect(completion).toMatchObject({
      object: 'chat.completion',
      model: 'llama3.2',
      created: Math.floor(Date.parse('2025-05-14T09:21:37.102845Z') / 1000),
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'The sky is blue because of Rayleigh scattering.' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 26, completion_tokens: 11, total_tokens: 37 },
    });
    expect(usage).toEqual({ promptTokens: 26, completionTokens: 11 });
  });

  it('converts tool calls (arguments as JSON text) and thinking', () => {
    const { completion } = convertOllamaChatAnswer(json('chat-tool-call.json'), 'qwen2.5');
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.reasoning_content).toBe('The user wants the weather, I should call the tool.');
    expect(choice.message.tool_calls).toEqual([
      {
        id: 'call_0',
        type: 'function',
        function: { name: 'get_current_weather', arguments: '{"format":"celsius","location":"Paris, FR"}' },
      },
    ]);
  });

  it('parses an NDJSON stream split anywhere into text, usage and finish', () => {
    const events = replay(text('chat-stream.ndjson'));
    expect(events[0]).toMatchObject({ type: 'start', model: 'llama3.2' });
    expect(
      events
        .filter((e) => e.type === 'text')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toBe('The sky is blue.');
    expect(events.slice(-2)).toEqual([
      { type: 'usage', usage: { promptTokens: 26, completionTokens: 4 } },
      { type: 'finish', index: 0, reason: 'stop' },
    ]);
  });

  it('reports an error line mid-stream', () => {
    const events = replay(text('chat-stream-error.ndjson'), 64);
    expect(events.at(-1)).toEqual({ type: 'error', message: 'an error was encountered while running the model: unexpected EOF' });
  });

  it('reads the message of an error body', () => {
    const read = ollama.chat!.errorMessage;
    expect(read(text('error-model-not-found.json'), 404)).toBe('model "llama9" not found, try pulling it first');
    expect(read('', 502)).toBe('upstream answered 502');
  });
});

describe('OpenAI embeddings ⇄ Ollama /api/embed', () => {
  it('sends text inputs and dimensions, refuses token ids', () => {
    expect(convertToOllamaEmbed({ model: 'nomic-embed-text', input: ['a', 'b'], dimensions: 4 })).toEqual({
      ok: true,
      body: { model: 'nomic-embed-text', input: ['a', 'b'], dimensions: 4 },
    });
    expect(convertToOllamaEmbed({ model: 'm', input: [[1, 2, 3]] }).ok).toBe(false);
  });

  it('answers an OpenAI list, as floats or as float32 base64', () => {
    const floats = convertOllamaEmbedAnswer(json('embed.json'), 'nomic-embed-text', { encoding_format: 'float' });
    expect(floats.usage).toEqual({ promptTokens: 8, completionTokens: 0 });
    expect(floats.completion).toMatchObject({
      object: 'list',
      model: 'nomic-embed-text',
      data: [{ object: 'embedding', index: 0, embedding: [0.010071029, -0.0017594862, 0.05007221, 0.04692972] }, { index: 1 }],
      usage: { prompt_tokens: 8, total_tokens: 8 },
    });
    const encoded = convertOllamaEmbedAnswer(json('embed.json'), 'nomic-embed-text', { encoding_format: 'base64' });
    const bytes = Buffer.from(encoded.completion.data[1]!.embedding as string, 'base64');
    const decoded = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
    decoded.forEach((v, i) => expect(v).toBeCloseTo(json('embed.json').embeddings[1][i], 6));
  });
});

describe('Ollama provider', () => {
  it('targets /api/chat and /api/embed, with a Bearer key only when one is given', () => {
    const channel = { key: '', base_url: 'http://gpu-box:11434/', other: null, openai_organization: null };
    expect(ollama.target(channel, 'chat.completions', 'llama3.2')).toEqual({ url: 'http://gpu-box:11434/api/chat', headers: {} });
    expect(ollama.target({ ...channel, key: 'secret' }, 'embeddings', 'm')).toEqual({
      url: 'http://gpu-box:11434/api/embed',
      headers: { authorization: 'Bearer secret' },
    });
    expect(ollama.isStream?.('application/x-ndjson')).toBe(true);
    expect(ollama.isStream?.('application/json; charset=utf-8')).toBe(false);
    expect(ollama.supports('rerank')).toBe(false);
  });
});
