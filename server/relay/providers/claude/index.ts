/** Anthropic Claude (type 14): `/v1/messages`, `x-api-key`, chat converted both ways. */
import type { ProviderDefinition } from '../types.js';
import { upstreamErrorMessage } from '../../call/call-upstream.js';
import { convertToClaudeMessages } from '../../wire/claude/convert-to-claude-messages.js';
import { claudeErrorOf } from '../../wire/claude/convert-claude-response.js';
import { claudeAnswerFor, claudeStreamFor } from '../../wire/claude/structured-output.js';

const DEFAULT_BASE_URL = 'https://api.anthropic.com';

export const claude: ProviderDefinition = {
  name: 'Claude',
  protocol: 'claude',
  streamUsageOption: false,
  supports: (endpoint) => endpoint === 'chat.completions',
  target(channel) {
    const base = (channel.base_url || DEFAULT_BASE_URL).replace(/\/+$/, '');
    return { url: `${base}/v1/messages`, headers: { 'x-api-key': channel.key, 'anthropic-version': '2023-06-01' } };
  },
  chat: {
    request(channel, body, stream, settings) {
      // Only Anthropic's own API is assumed to have structured outputs; elsewhere a forced tool stands in.
      const converted = convertToClaudeMessages(body, settings.claude, { nativeStructuredOutput: true });
      const target = claude.target(channel, 'chat.completions', String(body.model));
      return {
        target: { url: target.url, headers: { ...target.headers, ...converted.headers } },
        body: JSON.stringify({ ...converted.body, stream }),
      };
    },
    answer: claudeAnswerFor,
    stream: (_model, request) => claudeStreamFor(request),
    errorMessage(text, status) {
      try {
        return claudeErrorOf(JSON.parse(text))?.message ?? upstreamErrorMessage(text, status);
      } catch {
        return upstreamErrorMessage(text, status);
      }
    },
  },
};
