/**
 * Gemini conversion layer, as pure functions: OpenAI ⇄ Gemini requests, answers, streams and
 * embeddings, replaying the recorded shapes in tests/fixtures/providers/gemini/.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SseParser, type SseEvent } from '../../../server/relay/sse.js';
import { OPTION_REGISTRY, type OptionKey } from '../../../server/options/registry.js';
import { quotaFor } from '../../../server/billing/pricing.js';
import type { StreamEvent } from '../../../server/relay/protocol/events.js';
import { convertToGeminiRequest, guessMimeType } from '../../../server/relay/providers/gemini/convert-to-gemini-request.js';
import {
  GEMINI_HARM_CATEGORIES,
  geminiSettingsFrom,
  type GeminiSettings,
} from '../../../server/relay/providers/gemini/gemini-settings.js';
import { convertGeminiResponse, parseGeminiError } from '../../../server/relay/providers/gemini/convert-gemini-response.js';
import { createGeminiStreamParser, createGeminiStreamSerializer } from '../../../server/relay/providers/gemini/gemini-stream.js';
import { mapGeminiFinishReason, toGeminiFinishReason } from '../../../server/relay/providers/gemini/map-gemini-finish-reason.js';
import {
  convertFromGeminiRequest,
  convertOpenAIToGeminiResponse,
  geminiErrorBody,
} from '../../../server/relay/providers/gemini/convert-from-gemini-request.js';
import {
  convertFromGeminiEmbedRequest,
  convertGeminiEmbedResponse,
  convertOpenAIToGeminiEmbedResponse,
  convertToGeminiEmbedRequest,
} from '../../../server/relay/providers/gemini/gemini-embeddings.js';
import { cleanSchemaForGemini } from '../../../server/relay/providers/gemini/gemini-schema.js';
import type { OpenAIChatRequest } from '../../../server/relay/providers/gemini/gemini-api-types.js';

const dir = fileURLToPath(new URL('../../fixtures/providers/gemini/', import.meta.url));
const raw = (name: string) => readFileSync(dir + name, 'utf8');
const fixture = (name: string) => JSON.parse(raw(name)) as any;

const settings = (over: Partial<GeminiSettings> = {}): GeminiSettings => ({
  safetySettings: {},
  versionSettings: {},
  imageModels: ['gemini-2.0-flash-exp-image-generation'],
  thinkingAdapterEnabled: false,
  thinkingBudgetPercentage: 0.6,
  ...over,
});

/** Deterministic ids: id1, id2, … */
const ids = () => {
  let n = 0;
  return () => `id${++n}`;
};

const chat = (over: Partial<OpenAIChatRequest>): OpenAIChatRequest => ({
  model: 'gemini-2.5-flash',
  messages: [{ role: 'user', content: 'Hi' }],
  ...over,
});

function sseEvents(text: string): SseEvent[] {
  const parser = new SseParser();
  return [...parser.push(new TextEncoder().encode(text)), ...parser.end()];
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

describe('OpenAI chat request → Gemini request', () => {
  it('puts system messages in systemInstruction and maps roles and images', () => {
    const { body } = convertToGeminiRequest(
      chat({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'developer', content: [{ type: 'text', text: 'Use metric units.' }] },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello!' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in these?' },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
              { type: 'image_url', image_url: { url: 'https://example.com/cats/photo.WEBP?size=large' } },
              { type: 'image_url', image_url: { url: 'https://example.com/render' } },
              { type: 'image_url', image_url: { url: 'data:text/plain,hello%20world' } },
              { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'mp3' } },
            ],
          },
        ],
      }),
      settings(),
      { defaultImageMimeType: 'image/gif' },
    );
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }, { text: 'Use metric units.' }] });
    expect(body.contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(body.contents[1]).toEqual({ role: 'model', parts: [{ text: 'Hello!' }] });
    expect(body.contents[2]!.parts).toEqual([
      { text: 'What is in these?' },
      { inlineData: { mimeType: 'image/png', data: PNG } },
      { fileData: { mimeType: 'image/webp', fileUri: 'https://example.com/cats/photo.WEBP?size=large' } },
      { fileData: { mimeType: 'image/gif', fileUri: 'https://example.com/render' } },
      { inlineData: { mimeType: 'text/plain', data: Buffer.from('hello world').toString('base64') } },
      { inlineData: { mimeType: 'audio/mpeg', data: 'UklGRg==' } },
    ]);
    expect(guessMimeType('https://x.test/a.jpeg')).toBe('image/jpeg');
    expect(guessMimeType('https://x.test/a')).toBeUndefined();
  });

  it('turns tool calls into functionCall parts and tool results into functionResponse parts', () => {
    const { body } = convertToGeminiRequest(
      chat({
        messages: [
          { role: 'user', content: 'Weather and time in Paris?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_a',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
                extra_content: { google: { thought_signature: 'SIG-A' } },
              },
              { id: 'call_b', type: 'function', function: { name: 'get_local_time', arguments: 'not json' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_a', content: '{"temp":21,"sky":"clear"}' },
          { role: 'tool', tool_call_id: 'call_b', content: '14:05' },
          { role: 'assistant', content: 'It is 21 °C and 14:05.', extra_content: { google: { thought_signature: 'SIG-T' } } },
          { role: 'user', content: 'Thanks' },
          { role: 'tool', tool_call_id: 'unknown', name: 'lookup', content: '[1,2]' },
        ],
      }),
      settings(),
    );
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather and time in Paris?' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'SIG-A' },
          { functionCall: { name: 'get_local_time', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { temp: 21, sky: 'clear' } } },
          { functionResponse: { name: 'get_local_time', response: { content: '14:05' } } },
        ],
      },
      { role: 'model', parts: [{ text: 'It is 21 °C and 14:05.', thoughtSignature: 'SIG-T' }] },
      { role: 'user', parts: [{ text: 'Thanks' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { content: [1, 2] } } }] },
    ]);
  });

  it('declares tools with schemas cleaned of keys Gemini refuses', () => {
    const { body } = convertToGeminiRequest(
      chat({
        tools: [
          {
            type: 'function',
            function: {
              name: 'search',
              description: 'Search the catalogue',
              strict: true,
              parameters: {
                $schema: 'http://json-schema.org/draft-07/schema#',
                type: 'object',
                additionalProperties: false,
                properties: {
                  query: { type: 'string', format: 'uri', description: 'Words', minLength: 1 },
                  unit: { type: ['string', 'null'], enum: ['c', 'f'] },
                  tags: { type: 'array', items: { $ref: '#/$defs/Tag' }, uniqueItems: true },
                  after: { type: 'string', format: 'date-time' },
                  limit: { type: 'integer', format: 'int32', exclusiveMinimum: 0, minimum: 1 },
                  mode: { const: 'fast' },
                  either: { oneOf: [{ type: 'string' }, { type: 'number', format: 'percent' }] },
                  size: { type: 'number', enum: [1, 2, null] },
                },
                required: ['query', 'ghost'],
                $defs: { Tag: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false } },
              },
            },
          },
          { type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } },
        ],
      }),
      settings(),
    );
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'search',
            description: 'Search the catalogue',
            parameters: {
              type: 'OBJECT',
              properties: {
                query: { type: 'STRING', description: 'Words', minLength: 1 },
                unit: { type: 'STRING', nullable: true, enum: ['c', 'f'] },
                tags: { type: 'ARRAY', items: { type: 'OBJECT', properties: { name: { type: 'STRING' } } } },
                after: { type: 'STRING', format: 'date-time' },
                limit: { type: 'INTEGER', format: 'int32', minimum: 1 },
                mode: { type: 'STRING', enum: ['fast'] },
                either: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] },
                size: { type: 'NUMBER', nullable: true, enum: ['1', '2'] },
              },
              required: ['query'],
            },
          },
          { name: 'now' },
        ],
      },
    ]);
    expect(JSON.stringify(body.tools)).not.toMatch(
      /additionalProperties|\$schema|\$defs|\$ref|exclusiveMinimum|uniqueItems|strict/,
    );
  });

  it('maps tool_choice to toolConfig', () => {
    const config = (tool_choice: OpenAIChatRequest['tool_choice']) =>
      convertToGeminiRequest(chat({ tool_choice }), settings()).body.toolConfig;
    expect(config('auto')).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    expect(config('none')).toEqual({ functionCallingConfig: { mode: 'NONE' } });
    expect(config('required')).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    expect(config({ type: 'function', function: { name: 'search' } })).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['search'] },
    });
    expect(config(undefined)).toBeUndefined();
  });

  it('maps sampling options and response_format to generationConfig', () => {
    const { body } = convertToGeminiRequest(
      chat({ temperature: 0.3, top_p: 0.9, top_k: 40, max_tokens: 512, stop: 'END', n: 2, seed: 7, presence_penalty: 0.5 }),
      settings(),
    );
    expect(body.generationConfig).toEqual({
      temperature: 0.3,
      topP: 0.9,
      topK: 40,
      maxOutputTokens: 512,
      stopSequences: ['END'],
      candidateCount: 2,
      seed: 7,
      presencePenalty: 0.5,
    });
    const json = convertToGeminiRequest(chat({ response_format: { type: 'json_object' }, stop: ['a', 'b'] }), settings()).body;
    expect(json.generationConfig).toEqual({ stopSequences: ['a', 'b'], responseMimeType: 'application/json' });
    const schema = convertToGeminiRequest(
      chat({
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'answer',
            strict: true,
            schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false },
          },
        },
      }),
      settings(),
    ).body;
    expect(schema.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseSchema: { type: 'OBJECT', properties: { n: { type: 'INTEGER' } }, required: ['n'] },
    });
    expect(convertToGeminiRequest(chat({}), settings()).body.generationConfig).toBeUndefined();
  });

  it('sets safety thresholds for the standard harm categories from gemini.safety_settings', () => {
    const all = (threshold: string) => GEMINI_HARM_CATEGORIES.map((category) => ({ category, threshold }));
    expect(convertToGeminiRequest(chat({}), settings()).body.safetySettings).toEqual(all('BLOCK_NONE'));
    // Civic integrity refuses OFF on several models: it gets BLOCK_NONE unless named.
    const off = convertToGeminiRequest(chat({}), settings({ safetySettings: { default: 'OFF' } })).body.safetySettings;
    expect(off).toEqual([...all('OFF').slice(0, 4), { category: 'HARM_CATEGORY_CIVIC_INTEGRITY', threshold: 'BLOCK_NONE' }]);
    const civicOff = { default: 'OFF', HARM_CATEGORY_CIVIC_INTEGRITY: 'OFF' };
    expect(convertToGeminiRequest(chat({}), settings({ safetySettings: civicOff })).body.safetySettings).toEqual(all('OFF'));
    const mixed = convertToGeminiRequest(
      chat({}),
      settings({
        safetySettings: { default: 'BLOCK_ONLY_HIGH', HARM_CATEGORY_HARASSMENT: 'BLOCK_NONE', HARM_CATEGORY_IMAGE_HATE: 'OFF' },
      }),
    ).body.safetySettings;
    expect(mixed).toEqual([
      { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' },
      { category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_ONLY_HIGH' },
      { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', threshold: 'BLOCK_ONLY_HIGH' },
      { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', threshold: 'BLOCK_ONLY_HIGH' },
      { category: 'HARM_CATEGORY_CIVIC_INTEGRITY', threshold: 'BLOCK_ONLY_HIGH' },
      { category: 'HARM_CATEGORY_IMAGE_HATE', threshold: 'OFF' },
    ]);
  });

  it('adapts thinking only when the adapter is on: budget = max_tokens × percentage, capped at 24576', () => {
    const off = convertToGeminiRequest(
      chat({ model: 'gemini-2.5-flash-thinking', reasoning_effort: 'high', max_tokens: 1000 }),
      settings(),
    );
    expect(off.model).toBe('gemini-2.5-flash-thinking');
    expect(off.body.generationConfig?.thinkingConfig).toBeUndefined();

    const on = settings({ thinkingAdapterEnabled: true });
    const effort = convertToGeminiRequest(chat({ reasoning_effort: 'low', max_tokens: 1000 }), on);
    expect(effort.model).toBe('gemini-2.5-flash');
    expect(effort.body.generationConfig).toEqual({
      maxOutputTokens: 1000,
      thinkingConfig: { includeThoughts: true, thinkingBudget: 600 },
    });

    const suffixed = convertToGeminiRequest(chat({ model: 'gemini-2.5-flash-thinking', max_completion_tokens: 100_000 }), on);
    expect(suffixed.model).toBe('gemini-2.5-flash');
    expect(suffixed.body.generationConfig?.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 24576 });

    const half = convertToGeminiRequest(
      chat({ model: 'gemini-2.5-pro-thinking', max_tokens: 999 }),
      settings({ ...on, thinkingBudgetPercentage: 0.5 }),
    );
    expect(half.body.generationConfig?.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 499 });

    const noBudget = convertToGeminiRequest(chat({ reasoning_effort: 'medium' }), on);
    expect(noBudget.body.generationConfig).toEqual({ thinkingConfig: { includeThoughts: true } });

    const none = convertToGeminiRequest(
      chat({ model: 'gemini-2.5-flash-nothinking', reasoning_effort: 'high', max_tokens: 1000 }),
      on,
    );
    expect(none.model).toBe('gemini-2.5-flash');
    expect(none.body.generationConfig?.thinkingConfig).toEqual({ thinkingBudget: 0 });

    expect(convertToGeminiRequest(chat({ max_tokens: 1000 }), on).body.generationConfig).toEqual({ maxOutputTokens: 1000 });
  });

  it('chooses the API version per model from gemini.version_settings', () => {
    const version = (model: string, versionSettings: Record<string, unknown>) =>
      convertToGeminiRequest(chat({ model }), settings({ versionSettings })).apiVersion;
    expect(version('gemini-2.5-flash', {})).toBe('v1beta');
    expect(version('gemini-1.5-pro', { 'gemini-1.5-pro': 'v1' })).toBe('v1');
    expect(version('gemini-2.5-flash', { 'gemini-1.5-pro': 'v1' })).toBe('v1beta');
    expect(version('gemini-2.5-flash', { default: 'v1' })).toBe('v1');
    expect(version('gemini-2.5-flash', { default: 'v2' })).toBe('v1beta');
  });

  it('skips malformed client input instead of throwing', () => {
    const { body } = convertToGeminiRequest(
      chat({ messages: [null, { role: 'user', content: 42 }, { role: 'user', content: 'ok' }] as any, tool_choice: null as any }),
      settings(),
    );
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'ok' }] }]);
    expect(body.toolConfig).toBeUndefined();
  });

  it('asks image models for IMAGE output', () => {
    const { body } = convertToGeminiRequest(chat({ model: 'gemini-2.0-flash-exp-image-generation' }), settings());
    expect(body.generationConfig).toEqual({ responseModalities: ['TEXT', 'IMAGE'] });
  });

  it('reads its settings from the gemini.* options and their defaults', () => {
    const defaults = {
      json: (key: OptionKey) => JSON.parse(OPTION_REGISTRY[key].default),
      bool: (key: OptionKey) => OPTION_REGISTRY[key].default === 'true',
      number: (key: OptionKey) => Number(OPTION_REGISTRY[key].default),
    } as any;
    expect(geminiSettingsFrom(defaults)).toEqual({
      safetySettings: {},
      versionSettings: {},
      imageModels: ['gemini-2.0-flash-exp-image-generation'],
      thinkingAdapterEnabled: false,
      thinkingBudgetPercentage: 0.6,
    });
  });
});

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
    const price = { modelPrice: null, modelRatio: 1, completionRatio: 4, cacheRatio: 0.25, cacheWriteRatio: 1.25, groupRatio: 1 };
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
      { type: 'text', index: 0, text: 'Why did the' },
      { type: 'usage', usage: { promptTokens: 9, completionTokens: 0, cachedTokens: 0 } },
    ]);
    expect(parser.push(events[1]!)).toEqual([{ type: 'text', index: 0, text: ' scarecrow win an award? Because he was' }]);
    expect(parser.push(events[2]!)).toEqual([
      { type: 'text', index: 0, text: ' outstanding in his field.' },
      { type: 'finish', index: 0, reason: 'stop' },
      { type: 'usage', usage: { promptTokens: 9, completionTokens: 17 + 386, cachedTokens: 0 } },
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
      {
        type: 'reasoning',
        index: 0,
        text: '**Checking the weather**\n\nThe user wants the current weather in Tokyo, so I will call get_weather.\n',
      },
      { type: 'usage', usage: { promptTokens: 61, completionTokens: 0, cachedTokens: 0 } },
    ]);
    expect(parser.push(events[1]!)).toEqual([
      { type: 'reasoning', index: 0, text: '', signature: second.candidates[0].content.parts[0].thoughtSignature },
      {
        type: 'tool_call',
        index: 0,
        callIndex: 0,
        id: 'call_id1',
        name: 'get_weather',
        arguments: '{"city":"Tokyo","unit":"celsius"}',
      },
      { type: 'finish', index: 0, reason: 'tool_calls' },
      { type: 'usage', usage: { promptTokens: 61, completionTokens: 18 + 91, cachedTokens: 0 } },
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
    expect(blocked.map((e) => e.type)).toEqual(['start', 'finish', 'usage']);
    expect(blocked[1]).toEqual({ type: 'finish', index: 0, reason: 'content_filter' });
    const image = createGeminiStreamParser({ ...context, newId: ids() }).push({ event: 'message', data: raw('image.json') });
    expect(image[2]).toEqual({ type: 'text', index: 0, text: `![image](data:image/png;base64,${PNG})` });
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

describe('Gemini-format clients on OpenAI channels', () => {
  it('converts a Gemini request to an OpenAI chat request', () => {
    const request = convertFromGeminiRequest(
      {
        systemInstruction: { parts: [{ text: 'You are terse.' }] },
        contents: [
          {
            role: 'user',
            parts: [
              { text: 'Weather here?' },
              { inlineData: { mimeType: 'image/png', data: PNG } },
              { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
              { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
              { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/a.jpg' } },
              { fileData: { mimeType: 'video/mp4', fileUri: 'https://example.com/a.mp4' } },
            ],
          },
          {
            role: 'model',
            parts: [
              { text: 'Let me think', thought: true },
              { text: 'Checking.' },
              { functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'SIG-1' },
              { functionCall: { name: 'get_weather', args: { city: 'Bergen' } } },
            ],
          },
          {
            role: 'user',
            parts: [
              { functionResponse: { name: 'get_weather', response: { temp: 3 } } },
              { functionResponse: { name: 'get_weather', response: { temp: 7 } } },
            ],
          },
        ],
        tools: [
          {
            functionDeclarations: [
              {
                name: 'get_weather',
                description: 'Weather by city',
                parameters: {
                  type: 'OBJECT',
                  properties: {
                    city: { type: 'STRING', nullable: true },
                    unit: { type: 'STRING', format: 'enum', enum: ['c', 'f'] },
                  },
                  required: ['city'],
                  propertyOrdering: ['city', 'unit'],
                },
              },
            ],
          },
          { googleSearch: {} },
        ],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
        generationConfig: {
          temperature: 0.2,
          topP: 0.8,
          topK: 20,
          maxOutputTokens: 300,
          stopSequences: ['##'],
          candidateCount: 1,
          responseMimeType: 'application/json',
          responseSchema: { type: 'OBJECT', properties: { temp: { type: 'NUMBER' } } },
          thinkingConfig: { thinkingBudget: 4096 },
        },
        safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      },
      { model: 'gpt-4o', stream: true, newId: ids() },
    );
    expect(request).toEqual({
      model: 'gpt-4o',
      stream: true,
      messages: [
        { role: 'system', content: 'You are terse.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather here?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            {
              id: 'call_id1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
              extra_content: { google: { thought_signature: 'SIG-1' } },
            },
            { id: 'call_id2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Bergen"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_id1', content: '{"temp":3}' },
        { role: 'tool', tool_call_id: 'call_id2', content: '{"temp":7}' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather by city',
            parameters: {
              type: 'object',
              properties: { city: { type: ['string', 'null'] }, unit: { type: 'string', enum: ['c', 'f'] } },
              required: ['city'],
            },
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      temperature: 0.2,
      top_p: 0.8,
      max_tokens: 300,
      stop: ['##'],
      n: 1,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'response', schema: { type: 'object', properties: { temp: { type: 'number' } } } },
      },
      reasoning_effort: 'medium',
    });
    const simple = convertFromGeminiRequest(
      { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], toolConfig: { functionCallingConfig: { mode: 'ANY' } } },
      { model: 'm', stream: false },
    );
    expect(simple).toEqual({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], tool_choice: 'required' });
  });

  it('converts an OpenAI chat.completion to a Gemini answer', () => {
    const response = convertOpenAIToGeminiResponse(
      {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-4o',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              reasoning_content: 'Thinking…',
              content: 'Calling.',
              tool_calls: [
                {
                  id: 'call_1',
                  type: 'function',
                  function: { name: 'f', arguments: '{"a":1}' },
                  extra_content: { google: { thought_signature: 'S' } },
                },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: {
          prompt_tokens: 100,
          completion_tokens: 40,
          total_tokens: 140,
          prompt_tokens_details: { cached_tokens: 64 },
          completion_tokens_details: { reasoning_tokens: 25 },
        },
      },
      'gemini-2.5-pro',
    );
    expect(response).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'Thinking…', thought: true },
              { text: 'Calling.' },
              { functionCall: { name: 'f', args: { a: 1 } }, thoughtSignature: 'S' },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 100,
        candidatesTokenCount: 15,
        thoughtsTokenCount: 25,
        cachedContentTokenCount: 64,
        totalTokenCount: 140,
      },
      modelVersion: 'gemini-2.5-pro',
      responseId: 'chatcmpl-1',
    });
  });

  it('answers errors in Google shape', () => {
    expect(geminiErrorBody(429, 'slow down')).toEqual({
      error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' },
    });
    expect(geminiErrorBody(401, 'no key').error.status).toBe('UNAUTHENTICATED');
    expect(geminiErrorBody(502, 'bad gateway').error.status).toBe('INTERNAL');
    expect(geminiErrorBody(422, 'bad').error.status).toBe('INVALID_ARGUMENT');
  });
});

describe('Gemini SSE serializer', () => {
  const chunksOf = (text: string) => sseEvents(text).map((e) => JSON.parse(e.data) as any);

  it('writes text as it comes and tool calls whole, with finish and usage in the last chunk', () => {
    const serializer = createGeminiStreamSerializer({ model: 'gemini-2.5-flash' });
    const events: StreamEvent[] = [
      { type: 'start', id: 'chatcmpl-9', model: 'gpt-4o', created: 1 },
      { type: 'reasoning', index: 0, text: 'Hmm.' },
      { type: 'text', index: 0, text: 'Let me ' },
      { type: 'text', index: 0, text: 'check.' },
      { type: 'tool_call', index: 0, callIndex: 0, id: 'call_a', name: 'get_weather', arguments: '{"city":' },
      { type: 'tool_call', index: 0, callIndex: 0, arguments: '"Oslo"}' },
      { type: 'tool_call', index: 0, callIndex: 1, id: 'call_b', name: 'get_time', arguments: '' },
      { type: 'finish', index: 0, reason: 'tool_calls' },
      { type: 'usage', usage: { promptTokens: 50, completionTokens: 20, cachedTokens: 10 } },
    ];
    const out = events.map((e) => serializer.push(e));
    expect(out[4]).toBe('');
    expect(out[8]).toBe('');
    const text = out.join('') + serializer.end();
    expect(text).toMatch(/^data: /);
    const chunks = chunksOf(text);
    expect(chunks).toEqual([
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Hmm.', thought: true }] }, index: 0 }],
        modelVersion: 'gemini-2.5-flash',
        responseId: 'chatcmpl-9',
      },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Let me ' }] }, index: 0 }],
        modelVersion: 'gemini-2.5-flash',
        responseId: 'chatcmpl-9',
      },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'check.' }] }, index: 0 }],
        modelVersion: 'gemini-2.5-flash',
        responseId: 'chatcmpl-9',
      },
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { functionCall: { id: 'call_a', name: 'get_weather', args: { city: 'Oslo' } } },
                { functionCall: { id: 'call_b', name: 'get_time', args: {} } },
              ],
            },
            index: 0,
          },
        ],
        modelVersion: 'gemini-2.5-flash',
        responseId: 'chatcmpl-9',
      },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 20, totalTokenCount: 70, cachedContentTokenCount: 10 },
        modelVersion: 'gemini-2.5-flash',
        responseId: 'chatcmpl-9',
      },
    ]);
  });

  it('round-trips a Gemini stream, signatures included', () => {
    const source = chunksOf(raw('stream-function-call.chunks.txt'));
    const parser = createGeminiStreamParser({ model: 'gemini-2.5-flash', newId: ids() });
    const serializer = createGeminiStreamSerializer({ model: 'gemini-2.5-flash' });
    const text =
      sseEvents(raw('stream-function-call.chunks.txt'))
        .flatMap((e) => parser.push(e))
        .map((e) => serializer.push(e))
        .join('') + serializer.end();
    const chunks = chunksOf(text);
    const parts = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);
    expect(parts[0]).toEqual(source[0].candidates[0].content.parts[0]);
    expect(parts[1]).toEqual({
      functionCall: { id: 'call_id1', name: 'get_weather', args: { city: 'Tokyo', unit: 'celsius' } },
      thoughtSignature: source[1].candidates[0].content.parts[0].thoughtSignature,
    });
    const last = chunks.at(-1);
    expect(last.candidates[0].finishReason).toBe('STOP');
    // Our Usage folds thoughts into completion tokens, so they come back as candidates.
    expect(last.usageMetadata).toEqual({ promptTokenCount: 61, candidatesTokenCount: 109, totalTokenCount: 170 });
  });

  it('puts a trailing text signature on the last chunk and writes errors in Google shape', () => {
    const serializer = createGeminiStreamSerializer({ model: 'm' });
    const text =
      serializer.push({ type: 'text', index: 0, text: 'Done.' }) +
      serializer.push({ type: 'reasoning', index: 0, text: '', signature: 'SIG-END' }) +
      serializer.push({ type: 'finish', index: 0, reason: 'length' }) +
      serializer.end() +
      serializer.push({ type: 'error', message: 'upstream went away' });
    const chunks = chunksOf(text);
    expect(chunks[1]).toEqual({
      candidates: [
        { content: { role: 'model', parts: [{ text: '', thoughtSignature: 'SIG-END' }] }, finishReason: 'MAX_TOKENS', index: 0 },
      ],
      modelVersion: 'm',
    });
    expect(chunks[2]).toEqual({ error: { code: 500, message: 'upstream went away', status: 'INTERNAL' } });
    expect(createGeminiStreamSerializer({ model: 'm' }).end()).toBe('');
  });
});

describe('schema cleaning', () => {
  it('stops at a $ref cycle instead of recursing forever', () => {
    const cleaned = cleanSchemaForGemini({
      type: 'object',
      properties: { node: { $ref: '#/$defs/Node' } },
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
    });
    expect(JSON.stringify(cleaned)).not.toContain('$ref');
    expect((cleaned as any).properties.node.properties.next.type).toBe('OBJECT');
  });
});
