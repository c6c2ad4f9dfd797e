/**
 * A scripted stand-in for Anthropic's Messages API that refuses what the real API refuses: unknown
 * top-level fields, a missing max_tokens, tool_use and tool_result blocks that do not pair up with
 * the adjacent message, structured output (`output_config.format`) on a model without it or with a
 * schema it cannot take, thinking with a budget under 1024 or not under max_tokens, with a forced
 * tool choice, on a model without thinking, or with a final tool-calling assistant turn that does
 * not start with its thinking, or a thinking block whose signature it did not issue for that text;
 * max_tokens over the model's output limit; temperature with top_p on the models that take one of them.
 *
 * What it answers, by the request: a thinking block (signed) when thinking is on; a tool_use of the
 * forced tool, or of the first tool when tools are offered and the last turn is not a tool result;
 * JSON matching output_config's schema; text otherwise. Usage by the stand-ins' token rule, the last
 * figures kept in `lastUsage`. `/v1/messages/count_tokens` counts by the same rule.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { RecordedRequest } from './openai.js';
import { listenLocally, parseBody, readBody, sendJson } from './stand-in-server.js';
import { sampleOf, standInTokens, stringsIn, unknownKeys } from './model-behaviour.js';

export interface ClaudeStandIn {
  url: string;
  requests: RecordedRequest[];
  lastUsage: { input_tokens: number; output_tokens: number } | null;
  close(): Promise<void>;
}

type Json = Record<string, any>;

class Refusal extends Error {}

const FIELDS = [
  'model',
  'messages',
  'max_tokens',
  'system',
  'metadata',
  'stop_sequences',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'service_tier',
  'container',
  'mcp_servers',
  'context_management',
];
const COUNT_FIELDS = [
  'model',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'mcp_servers',
  'context_management',
];
/** Keywords structured outputs do not support. */
const UNSUPPORTED_SCHEMA = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength'];

/** Models with structured outputs: Claude 4.1 and later (Opus 4.1, Sonnet/Haiku/Opus 4.5 …). */
export function claudeHasStructuredOutput(model: string): boolean {
  const m = /claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d)(?!\d))?/.exec(model);
  return !!m && (Number(m[1]) > 4 || (Number(m[1]) === 4 && Number(m[2] ?? 0) >= 1));
}

/** Output limits of the families the tests use (Anthropic's models overview). */
const OUTPUT_LIMITS: Array<[RegExp, number]> = [
  [/claude-3-5/, 8192],
  [/claude-opus-4-(?:0|2025)/, 32000],
  [/claude-/, 64000],
];
/** Models without extended thinking. */
const thinks = (model: string) => !/claude-3-(?:5|haiku|opus)/.test(model);
/** Sonnet/Haiku 4.5 and Opus 4.1+ take temperature or top_p, not both. */
const oneSampler = (model: string) => /claude-(?:sonnet-4-5|haiku-4-5|opus-4-[15])/.test(model);

const blocksOf = (content: unknown): Json[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : (content as Json[]);

function checkSchema(schema: Json, at: string): void {
  if (!schema || typeof schema !== 'object') return;
  const bad = UNSUPPORTED_SCHEMA.find((k) => k in schema);
  if (bad) throw new Refusal(`output_config.format.schema: ${at}: '${bad}' is not supported`);
  if (schema.type === 'object' && schema.additionalProperties !== false)
    throw new Refusal(
      `output_config.format.schema: ${at}: For 'object' type, 'additionalProperties' must be explicitly set to false`,
    );
  for (const [name, sub] of Object.entries((schema.properties ?? {}) as Json)) checkSchema(sub, `${at}.${name}`);
  if (schema.items) checkSchema(schema.items, `${at}[]`);
  for (const sub of (schema.anyOf ?? []) as Json[]) checkSchema(sub, at);
}

function checkMessages(messages: Json[]): void {
  messages.forEach((message, i) => {
    const blocks = blocksOf(message.content);
    const next = messages[i + 1] ? blocksOf(messages[i + 1]!.content) : null;
    if (message.role === 'assistant' && next) {
      const uses = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id);
      const results = new Set(next.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id));
      const missing = uses.filter((id) => !results.has(id));
      if (missing.length > 0)
        throw new Refusal(
          `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
    }
    if (message.role === 'user') {
      const before = i > 0 ? blocksOf(messages[i - 1]!.content) : [];
      const uses = new Set(before.filter((b) => b.type === 'tool_use').map((b) => b.id));
      const stray = blocks.filter((b) => b.type === 'tool_result' && !uses.has(b.tool_use_id)).map((b) => b.tool_use_id);
      if (stray.length > 0)
        throw new Refusal(
          `messages.${i}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
    }
  });
}

/** Thinking blocks sent back must be the ones issued: signature → thinking text. */
function checkSignatures(messages: Json[], issued: Map<string, string>): void {
  messages.forEach((message, i) => {
    if (message.role !== 'assistant') return;
    blocksOf(message.content).forEach((b, j) => {
      if (b.type === 'thinking' && issued.get(b.signature) !== b.thinking)
        throw new Refusal(`messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`);
    });
  });
}

function check(body: Json, issued: Map<string, string>): void {
  const extra = unknownKeys(body, FIELDS);
  if (extra.length > 0) throw new Refusal(`${extra[0]}: Extra inputs are not permitted`);
  if (typeof body.max_tokens !== 'number') throw new Refusal('max_tokens: Field required');
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    throw new Refusal('messages: at least one message is required');
  checkMessages(body.messages);
  checkSignatures(body.messages, issued);
  const limit = OUTPUT_LIMITS.find(([re]) => re.test(body.model))?.[1] ?? 64000;
  if (body.max_tokens > limit)
    throw new Refusal(
      `max_tokens: ${body.max_tokens} > ${limit}, which is the maximum allowed number of output tokens for ${body.model}`,
    );
  if (oneSampler(body.model) && body.temperature !== undefined && body.top_p !== undefined)
    throw new Refusal('`temperature` and `top_p` cannot both be specified for this model. Please use only one.');
  const format = body.output_config?.format;
  if (format) {
    if (!claudeHasStructuredOutput(body.model)) throw new Refusal(`'${body.model}' does not support output format.`);
    if (format.type !== 'json_schema') throw new Refusal("output_config.format.type: Input should be 'json_schema'");
    checkSchema(format.schema, 'root');
  }
  if (body.thinking?.type === 'enabled') {
    if (!thinks(body.model)) throw new Refusal(`'claude-3-5' models do not support thinking: ${body.model}`);
    const finalAssistant = (body.messages as Json[]).filter((m) => m.role === 'assistant').at(-1);
    const blocks = finalAssistant ? blocksOf(finalAssistant.content) : [];
    if (blocks.some((b) => b.type === 'tool_use') && !['thinking', 'redacted_thinking'].includes(blocks[0]?.type))
      throw new Refusal(
        `messages.${body.messages.lastIndexOf(finalAssistant)}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${blocks[0]?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks).`,
      );
    const budget = body.thinking.budget_tokens;
    if (!(budget >= 1024)) throw new Refusal('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
    if (budget >= body.max_tokens) throw new Refusal('`max_tokens` must be greater than `thinking.budget_tokens`.');
    if (body.tool_choice && !['auto', 'none'].includes(body.tool_choice.type))
      throw new Refusal('Thinking may not be enabled when tool_choice forces tool use.');
    if (body.temperature !== undefined && body.temperature !== 1)
      throw new Refusal('`temperature` may only be set to 1 when thinking is enabled.');
  }
}

function answerBlocks(body: Json, issued: Map<string, string>): Json[] {
  const blocks: Json[] = [];
  if (body.thinking?.type === 'enabled') {
    const signature = randomBytes(16).toString('base64');
    issued.set(signature, 'Let me think.');
    blocks.push({ type: 'thinking', thinking: 'Let me think.', signature });
  }
  const last = blocksOf(body.messages.at(-1).content);
  const tools: Json[] = body.tools ?? [];
  const choice = body.tool_choice ?? { type: 'auto' };
  const schema = body.output_config?.format?.schema;
  if (last.some((b) => b.type === 'tool_result')) {
    const results = last.filter((b) => b.type === 'tool_result').map((b) => JSON.stringify(b.content ?? ''));
    blocks.push({ type: 'text', text: `The tool answered ${results.join(' and ')}.` });
  } else if (tools.length > 0 && choice.type !== 'none') {
    const tool = (choice.type === 'tool' ? tools.find((t) => t.name === choice.name) : tools[0]) ?? tools[0]!;
    blocks.push({
      type: 'tool_use',
      id: `toolu_${randomBytes(8).toString('hex')}`,
      name: tool.name,
      input: sampleOf(tool.input_schema),
    });
  } else {
    blocks.push({ type: 'text', text: schema ? JSON.stringify(sampleOf(schema)) : 'Hello from the Claude stand-in.' });
  }
  return blocks;
}

const sse = (type: string, data: Json) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

function streamAnswer(res: ServerResponse, message: Json): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const { content, usage } = message;
  res.write(
    sse('message_start', { message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } }),
  );
  (content as Json[]).forEach((block, index) => {
    if (block.type === 'text') {
      res.write(sse('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      const half = Math.floor(block.text.length / 2);
      for (const text of [block.text.slice(0, half), block.text.slice(half)])
        res.write(sse('content_block_delta', { index, delta: { type: 'text_delta', text } }));
    } else if (block.type === 'thinking') {
      res.write(sse('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
      res.write(sse('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block.thinking } }));
      res.write(sse('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } }));
    } else {
      res.write(sse('content_block_start', { index, content_block: { ...block, input: {} } }));
      const json = JSON.stringify(block.input);
      const half = Math.floor(json.length / 2);
      for (const partial_json of [json.slice(0, half), json.slice(half)])
        res.write(sse('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }));
    }
    res.write(sse('content_block_stop', { index }));
  });
  res.write(
    sse('message_delta', {
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    }),
  );
  res.end(sse('message_stop', {}));
}

export async function startClaudeStandIn(): Promise<ClaudeStandIn> {
  const state: ClaudeStandIn = { url: '', requests: [], lastUsage: null, close: async () => undefined };
  const issued = new Map<string, string>();
  const promptOf = (body: Json) => standInTokens(stringsIn([body.system, body.messages, body.tools]));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = parseBody(await readBody(req));
    state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    // Anthropic's API takes the SDK's beta namespace marker.
    const path = (req.url ?? '').replace(/\?beta=true$/, '');
    const error = (status: number, type: string, message: string) =>
      sendJson(res, status, { type: 'error', error: { type, message } });
    if (!req.headers['x-api-key']) return error(401, 'authentication_error', 'x-api-key header is required');
    if (!req.headers['anthropic-version']) return error(400, 'invalid_request_error', 'anthropic-version: header is required');
    if (req.method !== 'POST' || !body || typeof body !== 'object') return error(404, 'not_found_error', 'Not found');
    try {
      if (path === '/v1/messages/count_tokens') {
        const extra = unknownKeys(body, COUNT_FIELDS);
        if (extra.length > 0) throw new Refusal(`${extra[0]}: Extra inputs are not permitted`);
        checkMessages(body.messages ?? []);
        return sendJson(res, 200, { input_tokens: promptOf(body) });
      }
      if (path !== '/v1/messages') return error(404, 'not_found_error', 'Not found');
      check(body, issued);
    } catch (err) {
      if (err instanceof Refusal) return error(400, 'invalid_request_error', err.message);
      throw err;
    }
    const content = answerBlocks(body, issued);
    const usage = {
      input_tokens: promptOf(body),
      output_tokens: standInTokens(stringsIn(content.map((b) => [b.text, b.thinking, b.input]))),
    };
    state.lastUsage = usage;
    const message = {
      id: `msg_${randomBytes(8).toString('hex')}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content,
      stop_reason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage,
    };
    if (body.stream === true) return streamAnswer(res, message);
    sendJson(res, 200, message);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: err.message } });
      else res.destroy();
    });
  });
  const listening = await listenLocally(server);
  state.url = listening.url;
  state.close = listening.close;
  return state;
}
