/** OpenAI /v1/images/generations on a Gemini channel: generateContent asked for image output. */
import type { GeminiResponse } from '../../wire/gemini/gemini-api-types.js';
import { convertGeminiImageResponse, convertToGeminiImageRequest } from '../../wire/gemini/gemini-images.js';
import { parseGeminiError } from '../../wire/gemini/convert-gemini-response.js';
import { noStream } from '../../wire/openai/openai-embeddings.js';
import { upstreamErrorMessage } from '../../call/call-upstream.js';
import { refusedCall, sendUnlessRefused } from '../refusal.js';
import type { ChatAdapter, ChannelAccess } from '../types.js';

/** Billed from the answer's usageMetadata: image output tokens are completion tokens at the model's completion price. */
export function geminiImagesAdapter(baseOf: (channel: ChannelAccess) => string): ChatAdapter {
  return {
    request(channel, body) {
      const model = String(body.model ?? '');
      const plan = convertToGeminiImageRequest(body);
      if (!plan.ok) return refusedCall(plan.message);
      return {
        target: {
          url: `${baseOf(channel)}/v1beta/models/${encodeURIComponent(model)}:generateContent`,
          headers: { 'x-goog-api-key': channel.key },
        },
        body: JSON.stringify(plan.body),
      };
    },
    answer: (payload) => convertGeminiImageResponse((payload ?? {}) as GeminiResponse),
    stream: noStream,
    errorMessage: (text, status) => parseGeminiError(text)?.message ?? upstreamErrorMessage(text, status),
    send: sendUnlessRefused,
  };
}
