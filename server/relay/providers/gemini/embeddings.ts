/** Gemini's embedding endpoints as a provider adapter; the conversions are the wire's. */
import type { GeminiBatchEmbedContentsResponse, GeminiEmbedContentResponse } from '../../wire/gemini/gemini-api-types.js';
import type { OpenAIEmbeddingsRequest } from '../../wire/openai/openai-types.js';
import { embeddingInputs, noStream, vectorToBase64, wantsBase64 } from '../../wire/openai/openai-embeddings.js';
import { convertGeminiEmbedResponse, convertToGeminiEmbedRequest } from '../../wire/gemini/gemini-embeddings.js';
import { parseGeminiError } from '../../wire/gemini/convert-gemini-response.js';
import { countTokensNow, loadTokenizer } from '../../metering/tokenizer.js';
import { upstreamErrorMessage } from '../../call/call-upstream.js';
import { refusedCall, sendUnlessRefused } from '../refusal.js';
import type { ChatAdapter, ChannelAccess } from '../types.js';

/**
 * OpenAI /v1/embeddings on a Gemini channel. Gemini reports no usage: the answer's usage is null, so
 * the relay bills the locally counted prompt and flags the log row; the client's answer shows the
 * same count (the tokenizer is loaded while the call is in flight).
 */
export function geminiEmbeddingsAdapter(baseOf: (channel: ChannelAccess) => string): ChatAdapter {
  return {
    async request(channel, body) {
      const model = String(body.model ?? '');
      const plan = convertToGeminiEmbedRequest(body as unknown as OpenAIEmbeddingsRequest, model);
      if (!plan.ok) return refusedCall(plan.message);
      await loadTokenizer();
      return {
        target: {
          url: `${baseOf(channel)}/v1beta/models/${encodeURIComponent(model)}:${plan.action}`,
          headers: { 'x-goog-api-key': channel.key },
        },
        body: JSON.stringify(plan.body),
      };
    },
    answer(payload, model, request) {
      const answer = (payload ?? {}) as GeminiEmbedContentResponse | GeminiBatchEmbedContentsResponse;
      const vectors = 'embeddings' in answer ? answer.embeddings : [answer.embedding];
      if (!vectors.every((v) => Array.isArray(v?.values))) throw new Error('Gemini answered without embeddings');
      const promptTokens = countTokensNow((embeddingInputs(request?.input) ?? []).join('\n'));
      const { response } = convertGeminiEmbedResponse(answer, { model, promptTokens });
      if (wantsBase64(request))
        for (const item of response.data) (item as { embedding: unknown }).embedding = vectorToBase64(item.embedding);
      return { completion: response, usage: null };
    },
    stream: noStream,
    errorMessage: (text, status) => parseGeminiError(text)?.message ?? upstreamErrorMessage(text, status),
    send: sendUnlessRefused,
  };
}
