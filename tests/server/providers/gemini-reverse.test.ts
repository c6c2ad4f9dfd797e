/**
 * Gemini conversion layer: Gemini-format clients on OpenAI channels, and the Gemini SSE serializer; pure functions replaying the recorded shapes in
 * tests/fixtures/providers/gemini/.
 */
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../server/relay/wire/events.js';
import { createGeminiStreamParser, createGeminiStreamSerializer } from '../../../server/relay/wire/gemini/gemini-stream.js';
import {
  convertFromGeminiRequest,
  convertOpenAIToGeminiResponse,
  geminiErrorBody,
} from '../../../server/relay/wire/gemini/convert-from-gemini-request.js';
import { raw, ids, sseEvents, PNG } from './gemini-fixtures.js';

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
              // The call's id, as the stream gives it: Gemini CLI echoes it back with the result.
              { functionCall: { id: 'call_1', name: 'f', args: { a: 1 } }, thoughtSignature: 'S' },
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
