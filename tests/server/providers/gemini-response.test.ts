/**
 * Gemini conversion layer: Gemini answers, streams and embeddings → OpenAI; pure functions replaying the recorded shapes in
 * tests/fixtures/providers/gemini/.
 */
import { describe, expect, it } from 'vitest';
import { SseParser } from '../../../server/relay/wire/sse.js';
import { quotaFor } from '../../../server/billing/pricing.js';
import type { StreamEvent } from '../../../server/relay/wire/events.js';
import { convertGeminiResponse, parseGeminiError } from '../../../server/relay/wire/gemini/convert-gemini-response.js';
import { createGeminiStreamParser } from '../../../server/relay/wire/gemini/gemini-stream.js';
import { mapGeminiFinishReason, toGeminiFinishReason } from '../../../server/relay/wire/gemini/map-gemini-finish-reason.js';
import {
  convertFromGeminiEmbedRequest,
  convertGeminiEmbedResponse,
  convertOpenAIToGeminiEmbedResponse,
  convertToGeminiEmbedRequest,
} from '../../../server/relay/wire/gemini/gemini-embeddings.js';
import { raw, fixture, ids, sseEvents, PNG } from './gemini-fixtures.js';

describe('Gemini answer → OpenAI chat.completion', () => {
  const context = { model: 'my-gemini', created: 1_750_000_000, newId: ids() };

  it('converts a text answer with its usage', () => {
    const body = fixture('text.json');
    const { completion, usage } = convertGeminiResponse(body, context);
    expect(completion).toEqual({
      id: `chatcmpl-${body.responseId}`,
      object: 'chat.completion',
      created: 1_750_000_000,
      model: 'my-gemini',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Paris is the capital of France. It sits on the Seine in the north of the country.',
          },
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: 14,
        completion_tokens: 20,
        total_tokens: 34,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
    expect(usage).toEqual({ promptTokens: 14, completionTokens: 20, cachedTokens: 0 });
  });

  it('converts function calls to tool_calls with generated ids and finish_reason tool_calls', () => {
    const { completion } = convertGeminiResponse(fixture('function-call.json'), { ...context, newId: ids() });
    expect(completion.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_id1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' } },
          { id: 'call_id2', type: 'function', function: { name: 'get_local_time', arguments: '{"timezone":"Europe/Paris"}' } },
        ],
      },
      finish_reason: 'tool_calls',
    });
    const fromGemini = convertGeminiResponse(
      {
        candidates: [
          { content: { role: 'model', parts: [{ functionCall: { id: 'fc-9', name: 'f', args: {} } }] }, finishReason: 'STOP' },
        ],
      },
      context,
    );
    expect(fromGemini.completion.choices[0]!.message.tool_calls![0]!.id).toBe('fc-9');
  });

  it('puts thoughts in reasoning_content, keeps the signature, and bills thoughts and cached tokens', () => {
    const body = fixture('thinking.json');
    const { completion, usage } = convertGeminiResponse(body, context);
    const message = completion.choices[0]!.message;
    expect(message.reasoning_content).toBe(body.candidates[0].content.parts[0].text);
    expect(message.content).toBe('17 × 24 = **408**.');
    expect(message.extra_content).toEqual({
      google: { thought_signature: body.candidates[0].content.parts[1].thoughtSignature },
    });
    expect(completion.usage).toEqual({
      prompt_tokens: 2071,
      completion_tokens: 11 + 234,
      total_tokens: 2071 + 245,
      prompt_tokens_details: { cached_tokens: 2048 },
      completion_tokens_details: { reasoning_tokens: 234 },
    });
    expect(usage).toEqual({ promptTokens: 2071, completionTokens: 245, cachedTokens: 2048 });
    const price = {
      modelPrice: null,
      modelRatio: 1,
      completionRatio: 4,
      cacheRatio: 0.25,
      cacheWriteRatio: 1.25,
      groupRatio: 1,
      unset: false,
    };
    // (2071 − 2048) + 2048 × 0.25 + 245 × 4 = 23 + 512 + 980
    expect(quotaFor(price, usage, 500_000)).toBe(1515);
  });

  it('renders generated images as markdown data URLs', () => {
    const { completion } = convertGeminiResponse(fixture('image.json'), context);
    expect(completion.choices[0]!.message.content).toBe(`Here is a tiny red square.![image](data:image/png;base64,${PNG})`);
  });

  it('answers a blocked prompt with an empty content_filter choice', () => {
    const { completion, usage } = convertGeminiResponse(fixture('safety-blocked.json'), context);
    expect(completion.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' },
    ]);
    expect(usage).toEqual({ promptTokens: 18, completionTokens: 0, cachedTokens: 0 });
  });

  it('maps every finish reason', () => {
    for (const reason of ['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']) {
      expect(mapGeminiFinishReason(reason, false)).toBe('content_filter');
    }
    expect(mapGeminiFinishReason('STOP', false)).toBe('stop');
    expect(mapGeminiFinishReason('STOP', true)).toBe('tool_calls');
    expect(mapGeminiFinishReason('MAX_TOKENS', true)).toBe('length');
    expect(mapGeminiFinishReason('OTHER', false)).toBe('stop');
    expect(mapGeminiFinishReason(undefined, false)).toBeNull();
    const cut = convertGeminiResponse(
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Once' }] }, finishReason: 'MAX_TOKENS' }] },
      context,
    );
    expect(cut.completion.choices[0]!.finish_reason).toBe('length');
    const filtered = convertGeminiResponse({ candidates: [{ finishReason: 'SAFETY', index: 0 }] }, context);
    expect(filtered.completion.choices[0]).toEqual({
      index: 0,
      message: { role: 'assistant', content: '' },
      finish_reason: 'content_filter',
    });
    expect(['stop', 'length', 'tool_calls', 'content_filter', 'error', null].map(toGeminiFinishReason)).toEqual([
      'STOP',
      'MAX_TOKENS',
      'STOP',
      'SAFETY',
      'OTHER',
      undefined,
    ]);
  });

  it('counts tool-use prompt tokens as prompt', () => {
    const { usage } = convertGeminiResponse(
      { usageMetadata: { promptTokenCount: 10, toolUsePromptTokenCount: 90, candidatesTokenCount: 5, totalTokenCount: 105 } },
      context,
    );
    expect(usage).toEqual({ promptTokens: 100, completionTokens: 5, cachedTokens: 0 });
  });

  it('reads Google error bodies', () => {
    expect(parseGeminiError(raw('error-invalid-key.json'))).toEqual({
      code: 400,
      message: 'API key not valid. Please pass a valid API key.',
      status: 'INVALID_ARGUMENT',
    });
    expect(parseGeminiError(`[${raw('error-invalid-key.json')}]`)?.status).toBe('INVALID_ARGUMENT');
    expect(parseGeminiError('<html>502</html>')).toBeNull();
    expect(parseGeminiError('{"candidates":[]}')).toBeNull();
  });
});

describe('Gemini stream → StreamEvents', () => {
  const context = { model: 'my-gemini', created: 1_750_000_000 };

  it('parses a text stream chunk by chunk', () => {
    const events = sseEvents(raw('stream-text.chunks.txt'));
    expect(events).toHaveLength(3);
    const responseId = JSON.parse(events[0]!.data).responseId;
    const parser = createGeminiStreamParser({ ...context, newId: ids() });
    expect(parser.push(events[0]!)).toEqual([
      { type: 'start', id: `chatcmpl-${responseId}`, model: 'my-gemini', created: 1_750_000_000 },
      // Usage comes before the chunk's parts, so a converted stream can announce it with them.
      { type: 'usage', usage: { promptTokens: 9, completionTokens: 0, cachedTokens: 0 } },
      { type: 'text', index: 0, text: 'Why did the' },
    ]);
    expect(parser.push(events[1]!)).toEqual([{ type: 'text', index: 0, text: ' scarecrow win an award? Because he was' }]);
    expect(parser.push(events[2]!)).toEqual([
      { type: 'usage', usage: { promptTokens: 9, completionTokens: 17 + 386, cachedTokens: 0 } },
      { type: 'text', index: 0, text: ' outstanding in his field.' },
      { type: 'finish', index: 0, reason: 'stop' },
    ]);
  });

  it('gives the same events however the bytes are split', () => {
    const text = raw('stream-text.chunks.txt');
    const whole = createGeminiStreamParser({ ...context, newId: ids() });
    const expected = sseEvents(text).flatMap((e) => whole.push(e));
    const sse = new SseParser();
    const split = createGeminiStreamParser({ ...context, newId: ids() });
    const got: StreamEvent[] = [];
    const bytes = new TextEncoder().encode(text);
    for (let i = 0; i < bytes.length; i += 7) for (const e of sse.push(bytes.subarray(i, i + 7))) got.push(...split.push(e));
    for (const e of sse.end()) got.push(...split.push(e));
    expect(got).toEqual(expected);
  });

  it('parses thoughts and a whole function call with its signature', () => {
    const events = sseEvents(raw('stream-function-call.chunks.txt'));
    const second = JSON.parse(events[1]!.data);
    const parser = createGeminiStreamParser({ ...context, newId: ids() });
    const first = parser.push(events[0]!);
    expect(first.slice(1)).toEqual([
      { type: 'usage', usage: { promptTokens: 61, completionTokens: 0, cachedTokens: 0 } },
      {
        type: 'reasoning',
        index: 0,
        text: '**Checking the weather**\n\nThe user wants the current weather in Tokyo, so I will call get_weather.\n',
      },
    ]);
    expect(parser.push(events[1]!)).toEqual([
      { type: 'usage', usage: { promptTokens: 61, completionTokens: 18 + 91, cachedTokens: 0 } },
      {
        type: 'tool_call',
        index: 0,
        callIndex: 0,
        id: 'call_id1',
        name: 'get_weather',
        arguments: '{"city":"Tokyo","unit":"celsius"}',
        signature: second.candidates[0].content.parts[0].thoughtSignature,
      },
      { type: 'finish', index: 0, reason: 'tool_calls' },
    ]);
  });

  it('reports errors, blocked prompts and images', () => {
    const parser = createGeminiStreamParser({ ...context, newId: ids() });
    expect(parser.push({ event: 'message', data: 'not json' })).toEqual([
      { type: 'error', message: 'Gemini sent a stream chunk that is not JSON' },
    ]);
    expect(parser.push({ event: 'message', data: raw('error-invalid-key.json') })).toEqual([
      { type: 'error', message: 'API key not valid. Please pass a valid API key.' },
    ]);
    const blocked = parser.push({ event: 'message', data: raw('safety-blocked.json') });
    expect(blocked.map((e) => e.type)).toEqual(['start', 'usage', 'finish']);
    expect(blocked[2]).toEqual({ type: 'finish', index: 0, reason: 'content_filter' });
    const image = createGeminiStreamParser({ ...context, newId: ids() }).push({ event: 'message', data: raw('image.json') });
    expect(image[3]).toEqual({
      type: 'text',
      index: 0,
      text: `![image](data:image/png;base64,${PNG})`,
    });
  });
});

describe('embeddings', () => {
  it('sends one string to embedContent and a list to batchEmbedContents', () => {
    expect(convertToGeminiEmbedRequest({ model: 'x', input: 'hello', dimensions: 8 }, 'gemini-embedding-001')).toEqual({
      ok: true,
      action: 'embedContent',
      body: { content: { parts: [{ text: 'hello' }] }, outputDimensionality: 8 },
    });
    expect(convertToGeminiEmbedRequest({ model: 'x', input: ['a', 'b'] }, 'gemini-embedding-001')).toEqual({
      ok: true,
      action: 'batchEmbedContents',
      body: {
        requests: [
          { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'a' }] } },
          { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'b' }] } },
        ],
      },
    });
    expect(convertToGeminiEmbedRequest({ model: 'x', input: [1, 2, 3] }, 'gemini-embedding-001').ok).toBe(false);
  });

  it('turns Gemini vectors into an OpenAI list with the locally counted tokens', () => {
    const body = fixture('embeddings.json');
    const { response, usage } = convertGeminiEmbedResponse(body, { model: 'text-embedding-3-small', promptTokens: 4 });
    expect(response).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: body.embeddings[0].values },
        { object: 'embedding', index: 1, embedding: body.embeddings[1].values },
      ],
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: 4, total_tokens: 4 },
    });
    expect(usage).toEqual({ promptTokens: 4, completionTokens: 0 });
    const single = convertGeminiEmbedResponse({ embedding: { values: [0.5, -0.5] } }, { model: 'm', promptTokens: 1 });
    expect(single.response.data).toEqual([{ object: 'embedding', index: 0, embedding: [0.5, -0.5] }]);
  });

  it('serves Gemini-format embedding clients from OpenAI channels', () => {
    expect(
      convertFromGeminiEmbedRequest(
        'embedContent',
        { content: { parts: [{ text: 'hello ' }, { text: 'world' }] }, outputDimensionality: 256 },
        'm',
      ),
    ).toEqual({ model: 'm', input: 'hello world', dimensions: 256 });
    expect(
      convertFromGeminiEmbedRequest(
        'batchEmbedContents',
        {
          requests: [
            { model: 'models/m', content: { parts: [{ text: 'a' }] } },
            { model: 'models/m', content: { parts: [{ text: 'b' }] } },
          ],
        },
        'm',
      ),
    ).toEqual({ model: 'm', input: ['a', 'b'] });
    const openai = {
      object: 'list' as const,
      data: [
        { object: 'embedding' as const, index: 1, embedding: [2] },
        { object: 'embedding' as const, index: 0, embedding: [1] },
      ],
      model: 'm',
      usage: { prompt_tokens: 2, total_tokens: 2 },
    };
    expect(convertOpenAIToGeminiEmbedResponse('batchEmbedContents', openai)).toEqual({
      embeddings: [{ values: [1] }, { values: [2] }],
    });
    expect(convertOpenAIToGeminiEmbedResponse('embedContent', openai)).toEqual({ embedding: { values: [1] } });
  });
});
