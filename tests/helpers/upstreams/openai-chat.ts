/**
 * A scripted stand-in for OpenAI's chat completions that refuses what the real API refuses: unknown
 * fields, reasoning_effort on a model that does not reason, max_tokens, sampling parameters and a
 * temperature other than 1 on one that does, tool messages that do not answer the
 * preceding tool calls (or calls left unanswered), a json_schema format without a name, JSON mode
 * without the word "json" in the messages.
 *
 * What it answers, by the request: a tool call when tools are offered and the last message is not a
 * tool result, JSON matching response_format's schema, text otherwise (empty for a model named
 * `…-empty`, as an upstream that returns nothing); usage (with reasoning tokens
 * for reasoning models) by the stand-ins' token rule, the last figures kept in `lastUsage`; streams
 * carry `usage: null` and a usage chunk only when include_usage is asked.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { RecordedRequest } from './openai.js';
import { listenLocally, parseBody, readBody, sendJson } from './stand-in-server.js';
import { sampleOf, standInTokens, stringsIn, unknownKeys } from './model-behaviour.js';

export interface OpenAIChatStandIn {
  url: string;
  requests: RecordedRequest[];
  lastUsage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
  close(): Promise<void>;
}

type Json = Record<string, any>;

class Refusal extends Error {}

const FIELDS = [
  'model',
  'messages',
  'frequency_penalty',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'max_tokens',
  'max_completion_tokens',
  'n',
  'presence_penalty',
  'response_format',
  'seed',
  'service_tier',
  'stop',
  'stream',
  'stream_options',
  'temperature',
  'top_p',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'user',
  'reasoning_effort',
  'metadata',
  'store',
  'modalities',
  'audio',
  'prediction',
  'web_search_options',
  'verbosity',
  'prompt_cache_key',
  'safety_identifier',
];

/** OpenAI's reasoning models: o-series and gpt-5, but not gpt-5-chat. */
const reasons = (model: string) => /^(?:openai\/)?(?:o\d|gpt-5)(?!-chat)/.test(model);
/** What reasoning models refuse outright (OpenAI's reasoning guide). */
const REASONING_REFUSED = ['top_p', 'presence_penalty', 'frequency_penalty', 'logprobs', 'top_logprobs'];

function check(body: Json): void {
  const extra = unknownKeys(body, FIELDS);
  if (extra.length > 0) throw new Refusal(`Unrecognized request argument supplied: ${extra[0]}`);
  if (body.reasoning_effort !== undefined && !reasons(body.model))
    throw new Refusal("Unsupported parameter: 'reasoning_effort' is not supported with this model.");
  if (reasons(body.model)) {
    if (body.max_tokens !== undefined)
      throw new Refusal(
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      );
    if (body.temperature !== undefined && body.temperature !== 1)
      throw new Refusal(
        `Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`,
      );
    const refused = REASONING_REFUSED.find((p) => body[p] !== undefined);
    if (refused) throw new Refusal(`Unsupported parameter: '${refused}' is not supported with this model.`);
  }
  const messages: Json[] = body.messages ?? [];
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      let j = i - 1;
      while (j >= 0 && messages[j]!.role === 'tool') j--;
      const calls = (messages[j]?.tool_calls ?? []) as Json[];
      if (!calls.some((c) => c.id === m.tool_call_id))
        throw new Refusal(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        );
    }
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      const answered = new Set<string>();
      for (let j = i + 1; j < messages.length && messages[j]!.role === 'tool'; j++) answered.add(messages[j]!.tool_call_id);
      const missing = (m.tool_calls as Json[]).map((c) => c.id).filter((id) => !answered.has(id));
      if (missing.length > 0)
        throw new Refusal(
          `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`,
        );
    }
  });
  const format = body.response_format;
  if (format?.type === 'json_schema' && !format.json_schema?.name)
    throw new Refusal("Missing required parameter: 'response_format.json_schema.name'.");
  if (format?.type === 'json_object' && !/json/i.test(JSON.stringify(messages)))
    throw new Refusal("'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.");
}

function answerOf(body: Json): { content: string | null; tool_calls?: Json[] } {
  const last = (body.messages as Json[]).at(-1)!;
  const tools: Json[] = body.tools ?? [];
  if (last.role === 'tool') return { content: `The tool answered ${JSON.stringify(last.content)}.` };
  if (tools.length > 0 && body.tool_choice !== 'none') {
    const named = body.tool_choice?.function?.name;
    const tool = tools.find((t) => t.function.name === named) ?? tools[0]!;
    const call = {
      id: `call_${randomBytes(8).toString('hex')}`,
      type: 'function',
      function: { name: tool.function.name, arguments: JSON.stringify(sampleOf(tool.function.parameters)) },
    };
    return { content: null, tool_calls: [call] };
  }
  if (String(body.model).endsWith('-empty')) return { content: '' };
  const format = body.response_format;
  if (format?.type === 'json_schema') return { content: JSON.stringify(sampleOf(format.json_schema.schema)) };
  if (format?.type === 'json_object') return { content: '{"answer":"sample"}' };
  return { content: 'Hello from the OpenAI stand-in.' };
}

export async function startOpenAIChatStandIn(): Promise<OpenAIChatStandIn> {
  const state: OpenAIChatStandIn = { url: '', requests: [], lastUsage: null, close: async () => undefined };

  function answer(res: ServerResponse, body: Json): void {
    check(body);
    const message = answerOf(body);
    const prompt = standInTokens(stringsIn([body.messages, body.tools]));
    const reasoning = reasons(body.model) ? 16 : 0;
    const completion = standInTokens(stringsIn([message.content, message.tool_calls])) + reasoning;
    const usage = {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      completion_tokens_details: { reasoning_tokens: reasoning },
    };
    state.lastUsage = usage;
    const finish = message.tool_calls ? 'tool_calls' : 'stop';
    const base = { id: `chatcmpl-${randomBytes(8).toString('hex')}`, created: 1_750_000_000, model: body.model };
    if (body.stream !== true) {
      const choice = { index: 0, message: { role: 'assistant', refusal: null, ...message }, finish_reason: finish };
      return sendJson(res, 200, { ...base, object: 'chat.completion', choices: [choice], usage });
    }
    const withUsage = body.stream_options?.include_usage === true;
    const chunk = (delta: Json, finish_reason: string | null) =>
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }], ...(withUsage ? { usage: null } : {}) })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(chunk({ role: 'assistant', content: message.tool_calls ? null : '' }, null));
    if (message.tool_calls) {
      const [call] = message.tool_calls as Json[];
      const args: string = call!.function.arguments;
      res.write(
        chunk(
          { tool_calls: [{ index: 0, id: call!.id, type: 'function', function: { name: call!.function.name, arguments: '' } }] },
          null,
        ),
      );
      for (const piece of [args.slice(0, args.length >> 1), args.slice(args.length >> 1)])
        res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }, null));
    } else {
      const text = message.content ?? '';
      for (const piece of [text.slice(0, text.length >> 1), text.slice(text.length >> 1)])
        res.write(chunk({ content: piece }, null));
    }
    res.write(chunk({}, finish));
    if (withUsage) res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })}\n\n`);
    res.end('data: [DONE]\n\n');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = parseBody(await readBody(req));
    state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    const error = (status: number, message: string) =>
      sendJson(res, status, { error: { message, type: 'invalid_request_error', param: null, code: null } });
    if (!String(req.headers.authorization ?? '').startsWith('Bearer ')) return error(401, 'You didn’t provide an API key.');
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return error(404, `Invalid URL (${req.method} ${req.url})`);
    try {
      answer(res, body);
    } catch (err) {
      if (err instanceof Refusal) return error(400, err.message);
      throw err;
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: err.message, type: 'server_error' } });
      else res.destroy();
    });
  });
  const listening = await listenLocally(server);
  state.url = listening.url;
  state.close = listening.close;
  return state;
}
