/**
 * Claude-format clients (`POST /v1/messages`): passed through to Claude channels, converted through
 * OpenAI chat for every other channel and answered back in Claude's message and event shapes.
 */
import type { ClaudeRequest } from './claude-api-types.js';
import { convertFromClaudeRequest, convertToClaudeResponse, createClaudeSseSerializer } from './convert-from-claude-messages.js';
import { usageFromClaude } from './convert-claude-response.js';
import { createClaudeStreamParser } from './claude-stream.js';
import { forwardJson, forwardStream, inspectWith, isWatched } from '../../call/forward-answer.js';
import { passStream, usageKeyAt, type PassRules } from '../../call/pass-stream.js';
import type { ClientFormatDefinition } from '../types.js';
import { convertOnce } from '../convert-once.js';
import { edgeCheck } from '../edge-check.js';
import { CLAUDE_MESSAGES } from './edge-schemas.js';
import { claudePromptTokens } from '../prompt-count.js';
import { countTokensNow } from '../../metering/tokenizer.js';

/** A refusal that ends the message: Claude's own `refusal` stop reason. */
const REFUSAL_TAIL =
  `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'refusal', stop_sequence: null }, usage: { output_tokens: 0 } })}\n\n` +
  'event: message_stop\ndata: {"type":"message_stop"}\n\n';

const checkMessages = edgeCheck(CLAUDE_MESSAGES);

/**
 * Claude's usage rides on message_start and message_delta, its closing on message_stop: the
 * `message_*` events are read as they pass, content blocks only counted later, in order (the parser
 * keeps their state, and message events never touch it). An event without an `event:` line is read
 * when it may be one of those.
 */
const CLAUDE_PASS: PassRules = {
  // `message_` covers both the event names and message_stop: a sieve, cheaper as one search.
  mayMatter: (text) => text.includes('message_') || usageKeyAt(text, 0) !== -1,
  matters: (raw) =>
    raw.startsWith('event: message_') ||
    (!raw.startsWith('event:') && (usageKeyAt(raw, 0) !== -1 || raw.includes('message_stop'))),
};

export const claudeFormat: ClientFormatDefinition = {
  check: (_endpoint, body) => checkMessages(body),
  servedBy: (provider) => provider.supports('chat.completions'),
  passesThrough: (provider, input) => input.body !== null && provider.protocol === 'claude',
  // Bedrock's body field for the betas goes as the header (claude-routes.ts); Anthropic refuses it in the body.
  upstreamBody(input) {
    if (!input.body || !('anthropic_beta' in input.body)) return input.body;
    const { anthropic_beta: _betas, ...body } = input.body;
    return body;
  },
  toOpenAI(input) {
    const body = input.body ?? {};
    // Checked against Claude's request shape at the edge (edge-schemas.ts).
    return { endpoint: 'chat.completions', body: convertOnce(body, () => convertFromClaudeRequest(body as ClaudeRequest)) };
  },
  fromOpenAI: (input, answer) => convertToClaudeResponse(answer, { model: input.model }),
  serializer: (input) =>
    createClaudeSseSerializer({ model: input.model, promptTokens: claudePromptTokens(input.body ?? {}, countTokensNow) }),
  forwardNative({ res, out, started, hooks, streaming, decoder }) {
    if (!streaming)
      return forwardJson(res, out, started, (payload) => usageFromClaude((payload as { usage?: unknown } | null)?.usage));
    const inspect = inspectWith(createClaudeStreamParser());
    // Unwatched, in plain SSE: through untouched but for usage and the closing (pass-stream.ts).
    if (!decoder && !isWatched(out)) return passStream(res, out, started, { inspect, hooks, rules: CLAUDE_PASS });
    return forwardStream(res, out, started, { inspect, hooks, decoder });
  },
  // Only Anthropic's Messages URL: Bedrock's and Vertex's signed or fixed addresses take no query of ours.
  nativeUrl: (url, input) => (input.betaQuery && url.endsWith('/v1/messages') ? `${url}?beta=true` : url),
  cutStreamTail: () => REFUSAL_TAIL,
};
