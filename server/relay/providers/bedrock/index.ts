/**
 * AWS Claude (type 33): Claude models on Amazon Bedrock through InvokeModel, signed with SigV4.
 * Claude clients are passed through (the body rewritten for Bedrock, then signed); OpenAI chat is
 * converted through the Claude converters. Streams arrive as AWS event streams.
 */
import type { ProviderDefinition } from '../types.js';
import { convertToClaudeMessages } from '../../wire/claude/convert-to-claude-messages.js';
import { claudeAnswerFor, claudeStreamFor } from '../../wire/claude/structured-output.js';
import { createBedrockEventStreamDecoder, EVENT_STREAM_CONTENT_TYPE } from './bedrock-event-stream.js';
import { awsKeyOf, bedrockBody, bedrockErrorMessage, invokeUrl } from './bedrock-request.js';
import { signBedrockRequest } from './sign-bedrock-request.js';

export const bedrock: ProviderDefinition = {
  name: 'AWS Claude',
  protocol: 'claude',
  streamUsageOption: false,
  supports: (endpoint) => endpoint === 'chat.completions',
  target: (channel, _endpoint, model, stream = false) => ({ url: invokeUrl(channel, model, stream), headers: {} }),
  async prepare({ target, body, channel }) {
    const key = awsKeyOf(channel);
    const claude = JSON.parse(body.toString()) as Record<string, unknown>;
    const payload = bedrockBody(claude, target.headers['anthropic-beta']);
    return { target: { url: target.url, headers: await signBedrockRequest(target.url, payload, key) }, body: payload };
  },
  isStream: (contentType) => contentType.includes(EVENT_STREAM_CONTENT_TYPE),
  decoder: createBedrockEventStreamDecoder,
  chat: {
    async request(channel, body, stream, settings) {
      const key = awsKeyOf(channel);
      const converted = convertToClaudeMessages(body, settings.claude);
      const url = invokeUrl(channel, converted.body.model, stream);
      const payload = bedrockBody({ ...converted.body }, converted.headers['anthropic-beta']);
      return { target: { url, headers: await signBedrockRequest(url, payload, key) }, body: payload };
    },
    answer: claudeAnswerFor,
    stream: (_model, request) => claudeStreamFor(request),
    errorMessage: bedrockErrorMessage,
  },
};
