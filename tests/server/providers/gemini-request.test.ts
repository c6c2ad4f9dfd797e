/**
 * Gemini conversion layer: OpenAI requests → Gemini requests, and schema cleaning; pure functions replaying the recorded shapes in
 * tests/fixtures/providers/gemini/.
 */
import { describe, expect, it } from 'vitest';
import { OPTION_REGISTRY, type OptionKey } from '../../../server/options/registry.js';
import { convertToGeminiRequest, guessMimeType } from '../../../server/relay/wire/gemini/convert-to-gemini-request.js';
import { GEMINI_HARM_CATEGORIES, geminiSettingsFrom } from '../../../server/relay/wire/gemini/gemini-settings.js';
import { cleanSchemaForGemini } from '../../../server/relay/wire/gemini/gemini-schema.js';
import type { OpenAIChatRequest } from '../../../server/relay/wire/openai/openai-types.js';
import { settings, chat, PNG } from './gemini-fixtures.js';

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

  it('gives Gemini 3 and later the skip value for each step whose first call lost its signature', () => {
    const call = (id: string, name: string, signature?: string) => ({
      id,
      type: 'function' as const,
      function: { name, arguments: '{}' },
      ...(signature ? { extra_content: { google: { thought_signature: signature } } } : {}),
    });
    const messages: OpenAIChatRequest['messages'] = [
      { role: 'user', content: 'Go' },
      { role: 'assistant', content: 'First:', tool_calls: [call('a', 'one'), call('b', 'two')] },
      { role: 'tool', tool_call_id: 'a', content: '1' },
      { role: 'tool', tool_call_id: 'b', content: '2' },
      { role: 'assistant', content: null, tool_calls: [call('c', 'three', 'SIG-C')] },
      { role: 'tool', tool_call_id: 'c', content: '3' },
    ];
    const steps = (model: string) =>
      convertToGeminiRequest(chat({ model, messages }), settings()).body.contents.filter((c) => c.role === 'model');
    for (const model of ['gemini-3-pro-preview', 'gemini-3-flash-preview-thinking', 'gemini-4-pro']) {
      expect(steps(model).map((s) => s.parts)).toEqual([
        [
          { text: 'First:' },
          { functionCall: { name: 'one', args: {} }, thoughtSignature: 'skip_thought_signature_validator' },
          { functionCall: { name: 'two', args: {} } },
        ],
        [{ functionCall: { name: 'three', args: {} }, thoughtSignature: 'SIG-C' }],
      ]);
    }
    // Gemini 2.5 does not validate signatures: nothing is made up for it.
    expect(steps('gemini-2.5-flash')[0]!.parts[1]).toEqual({ functionCall: { name: 'one', args: {} } });
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

  it('sends a reasoning_effort as its level’s budget (2.5) or level (3), with or without the adapter', () => {
    const config = (model: string, reasoning_effort: string) =>
      convertToGeminiRequest(chat({ model, reasoning_effort, max_tokens: 1000 }), settings()).body.generationConfig;
    expect(config('gemini-2.5-flash', 'low')).toEqual({
      maxOutputTokens: 1000,
      thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 },
    });
    expect(config('gemini-2.5-flash', 'medium')?.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 8192 });
    expect(config('gemini-2.5-pro', 'high')?.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 24576 });
    expect(config('gemini-2.5-flash', 'none')?.thinkingConfig).toEqual({ thinkingBudget: 0 });
    // Pro cannot stop thinking: its least budget.
    expect(config('gemini-2.5-pro', 'none')?.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 128 });
    expect(config('gemini-3-pro-preview', 'medium')?.thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: 'high' });
    expect(config('gemini-3-flash-preview', 'medium')?.thinkingConfig).toEqual({
      includeThoughts: true,
      thinkingLevel: 'medium',
    });
    expect(config('gemini-3-pro-preview', 'minimal')?.thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: 'low' });
  });

  it('adapts -thinking models only when the adapter is on: budget = max_tokens × percentage, capped at 24576', () => {
    const off = convertToGeminiRequest(chat({ model: 'gemini-2.5-flash-thinking', max_tokens: 1000 }), settings());
    expect(off.model).toBe('gemini-2.5-flash-thinking');
    expect(off.body.generationConfig?.thinkingConfig).toBeUndefined();

    const on = settings({ thinkingAdapterEnabled: true });
    const suffixed = convertToGeminiRequest(chat({ model: 'gemini-2.5-flash-thinking', max_completion_tokens: 100_000 }), on);
    expect(suffixed.model).toBe('gemini-2.5-flash');
    expect(suffixed.body.generationConfig?.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 24576 });

    const half = convertToGeminiRequest(
      chat({ model: 'gemini-2.5-pro-thinking', max_tokens: 999 }),
      settings({ ...on, thinkingBudgetPercentage: 0.5 }),
    );
    expect(half.body.generationConfig?.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 499 });

    const noBudget = convertToGeminiRequest(chat({ model: 'gemini-2.5-flash-thinking' }), on);
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
      thinkingSuffixExempt: [],
    });
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
