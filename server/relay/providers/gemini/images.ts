/** OpenAI /v1/images/generations on a Gemini channel: generateContent asked for image output. */
import type { GeminiResponse } from '../../wire/gemini/gemini-api-types.js';
import { convertGeminiImageResponse, convertToGeminiImageRequest, missingImage } from '../../wire/gemini/gemini-images.js';
import { httpLikeAnswer, isJsonAnswer, jsonAnswer, readJson } from '../kit/http-like.js';
import { parseGeminiError } from '../../wire/gemini/convert-gemini-response.js';
import { noStream } from '../../wire/openai/openai-embeddings.js';
import { upstreamErrorMessage } from '../../call/call-upstream.js';
import { refusedCall, sendUnlessRefused } from '../refusal.js';
import type { UpstreamTarget } from '../../call/call-upstream.js';
import type { ChatAdapter, ChannelAccess } from '../types.js';

/** Images come back inline: a 4K image is several megabytes of base64. */
const ANSWER_LIMIT = 64 * 1024 * 1024;

/** Billed from the answer's usageMetadata: image output tokens are completion tokens at the model's completion price. */
export function geminiImagesAdapter(
  /** Where a model's generateContent is, with its credentials (an API key on Gemini, a bearer token on Vertex). */
  targetOf: (channel: ChannelAccess, model: string) => UpstreamTarget | Promise<UpstreamTarget>,
  errorMessage: (text: string, status: number) => string = (text, status) =>
    parseGeminiError(text)?.message ?? upstreamErrorMessage(text, status),
): ChatAdapter {
  return {
    async request(channel, body) {
      const plan = convertToGeminiImageRequest(body);
      if (!plan.ok) return refusedCall(plan.message);
      return { target: await targetOf(channel, String(body.model ?? '')), body: JSON.stringify(plan.body) };
    },
    answer: (payload) => convertGeminiImageResponse((payload ?? {}) as GeminiResponse),
    stream: noStream,
    errorMessage,
    /**
     * A 200 without an image (the prompt blocked, the model answering in words) is the request's
     * own failure: a 400 the client can read, no charge and no other channel tried.
     */
    async send(call, exchange) {
      const res = await sendUnlessRefused(call, exchange);
      if (res.statusCode !== 200 || !isJsonAnswer(res)) return res;
      const { text, payload } = await readJson(res, ANSWER_LIMIT);
      const why = payload ? missingImage(payload as GeminiResponse) : null;
      if (why) return jsonAnswer(400, { error: { code: 400, message: why, status: 'INVALID_ARGUMENT' } });
      return httpLikeAnswer(200, 'application/json', text);
    },
  };
}
