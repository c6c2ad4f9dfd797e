/**
 * Vertex AI (type 41): Gemini models (`publishers/google`, generateContent) and Claude models
 * (`publishers/anthropic`, rawPredict) under one Google Cloud project, with a bearer token from the
 * channel's service account. Which protocol a call speaks depends on the model, so the channel
 * type's definition hands out one definition per model (`forModel`).
 */
import type { ProviderDefinition } from '../types.js';
import { convertToClaudeMessages } from '../../wire/claude/convert-to-claude-messages.js';
import { claudeStreamFor } from '../../wire/claude/structured-output.js';
import { convertToGeminiRequest } from '../../wire/gemini/convert-to-gemini-request.js';
import { withInlinedImages } from '../gemini/inline-images.js';
import { geminiImagesAdapter } from '../gemini/images.js';
import { sendUnlessRefused } from '../refusal.js';
import { createGeminiStreamParser } from '../../wire/gemini/gemini-stream.js';
import { authorizationFor, vertexAnswer, vertexClaudeBody, vertexErrorMessage, withoutModel } from './vertex-request.js';
import { claudeUrl, geminiUrl, isClaudeModel } from './vertex-urls.js';

const NAME = 'Vertex AI';

/** Gemini models: Gemini bodies, passed through for Gemini clients and converted for the others. */
export const vertexGemini: ProviderDefinition = {
  name: NAME,
  protocol: 'gemini',
  streamUsageOption: false,
  supports: (endpoint) => endpoint === 'chat.completions' || endpoint === 'images.generations',
  target: (channel, _endpoint, model, stream = false) => ({ url: geminiUrl(channel, model, stream), headers: {} }),
  async prepare({ target, body, channel, model }) {
    const auth = await authorizationFor(channel, model);
    return { target: { url: target.url, headers: { ...target.headers, ...auth } }, body: withoutModel(body) };
  },
  chat: {
    request: (channel, body, stream, settings) =>
      withInlinedImages(body, async (inlined) => {
        const plan = convertToGeminiRequest(inlined, settings.gemini);
        const auth = await authorizationFor(channel, plan.model);
        return { target: { url: geminiUrl(channel, plan.model, stream), headers: auth }, body: JSON.stringify(plan.body) };
      }),
    send: sendUnlessRefused,
    answer: vertexAnswer,
    stream: (model) => createGeminiStreamParser({ model }),
    errorMessage: vertexErrorMessage,
  },
  adapters: {
    'images.generations': geminiImagesAdapter(
      async (channel, model) => ({ url: geminiUrl(channel, model, false), headers: await authorizationFor(channel, model) }),
      vertexErrorMessage,
    ),
  },
};

/** Claude models: Claude Messages bodies, passed through for Claude clients and converted for the others. */
export const vertexClaude: ProviderDefinition = {
  name: NAME,
  protocol: 'claude',
  streamUsageOption: false,
  supports: (endpoint) => endpoint === 'chat.completions',
  target: (channel, _endpoint, model, stream = false) => ({ url: claudeUrl(channel, model, stream), headers: {} }),
  async prepare({ target, body, channel, model, stream }) {
    const auth = await authorizationFor(channel, model);
    const claude = JSON.parse(body.toString()) as Record<string, unknown>;
    return { target: { url: target.url, headers: { ...target.headers, ...auth } }, body: vertexClaudeBody(claude, stream) };
  },
  chat: {
    async request(channel, body, stream, settings) {
      const converted = convertToClaudeMessages(body, settings.claude);
      const model = converted.body.model;
      const auth = await authorizationFor(channel, model);
      // Vertex takes the API version in the body; other headers (anthropic-beta) go along.
      const { 'anthropic-version': _version, ...extra } = converted.headers;
      return {
        target: { url: claudeUrl(channel, model, stream), headers: { ...extra, ...auth } },
        body: vertexClaudeBody({ ...converted.body }, stream),
      };
    },
    answer: vertexAnswer,
    stream: (_model, request) => claudeStreamFor(request),
    errorMessage: vertexErrorMessage,
  },
};

export const vertex: ProviderDefinition = {
  ...vertexGemini,
  forModel: (model) => (isClaudeModel(model) ? vertexClaude : vertexGemini),
};
