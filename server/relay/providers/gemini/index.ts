/**
 * Google Gemini (type 24): `/{version}/models/{model}:generateContent`, `x-goog-api-key`; chat,
 * embeddings and image generation converted both ways.
 */
import type { ProviderDefinition } from '../types.js';
import { upstreamErrorMessage } from '../../call/call-upstream.js';
import { convertToGeminiRequest } from '../../wire/gemini/convert-to-gemini-request.js';
import { convertGeminiResponse, parseGeminiError } from '../../wire/gemini/convert-gemini-response.js';
import { createGeminiStreamParser } from '../../wire/gemini/gemini-stream.js';
import { withInlinedImages } from './inline-images.js';
import { sendUnlessRefused } from '../refusal.js';
import type { GeminiResponse } from '../../wire/gemini/gemini-api-types.js';
import { geminiEmbeddingsAdapter } from './embeddings.js';
import { geminiImagesAdapter } from './images.js';

const DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

function baseOf(base: string | null): string {
  return (base || DEFAULT_BASE_URL).replace(/\/+$/, '');
}

export const gemini: ProviderDefinition = {
  name: 'Gemini',
  protocol: 'gemini',
  streamUsageOption: false,
  supports: (endpoint) => endpoint === 'chat.completions' || endpoint === 'embeddings' || endpoint === 'images.generations',
  target(channel, endpoint, model, stream = false) {
    const action = endpoint === 'embeddings' ? 'embedContent' : stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    return {
      url: `${baseOf(channel.base_url)}/v1beta/models/${encodeURIComponent(model)}:${action}`,
      headers: { 'x-goog-api-key': channel.key },
    };
  },
  chat: {
    request: (channel, body, stream, settings) =>
      withInlinedImages(body, (inlined) => {
        const plan = convertToGeminiRequest(inlined, settings.gemini);
        const action = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
        return {
          target: {
            url: `${baseOf(channel.base_url)}/${plan.apiVersion}/models/${encodeURIComponent(plan.model)}:${action}`,
            headers: { 'x-goog-api-key': channel.key },
          },
          body: JSON.stringify(plan.body),
        };
      }),
    send: sendUnlessRefused,
    answer(payload, model) {
      const { completion, usage } = convertGeminiResponse(payload as GeminiResponse, { model });
      return { completion, usage };
    },
    stream: (model) => createGeminiStreamParser({ model }),
    errorMessage: (text, status) => parseGeminiError(text)?.message ?? upstreamErrorMessage(text, status),
  },
  adapters: {
    embeddings: geminiEmbeddingsAdapter((channel) => baseOf(channel.base_url)),
    'images.generations': geminiImagesAdapter((channel, model) => ({
      url: `${baseOf(channel.base_url)}/v1beta/models/${encodeURIComponent(model)}:generateContent`,
      headers: { 'x-goog-api-key': channel.key },
    })),
  },
};
