/**
 * A scripted stand-in for OpenAI's Responses API that refuses what the real API refuses: unknown
 * fields, reasoning options on a model that does not reason, sampling parameters on one that does,
 * a function_call_output whose call is not in the input (stateless, store false), a reasoning item
 * whose encrypted_content it never issued, max_output_tokens under 16.
 *
 * What it answers: on reasoning models a reasoning item first (with encrypted_content when
 * `include` asks for it); a function call of the first function tool when tools are offered and the
 * last input item is not a tool result; text otherwise. Usage by the stand-ins' token rule, kept in
 * `lastUsage`. Chat completions are passed on to `chatUrl` (a chat stand-in), so one OpenAI channel
 * serves both endpoints as OpenAI's does.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { RecordedRequest } from './openai.js';
import { listenLocally, parseBody, readBody, sendJson } from './stand-in-server.js';
import { sampleOf, standInTokens, stringsIn, unknownKeys } from './model-behaviour.js';

type Json = Record<string, any>;

export interface ResponsesUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens_details: { reasoning_tokens: number };
}

export interface ResponsesStandIn {
  url: string;
  requests: RecordedRequest[];
  lastUsage: ResponsesUsage | null;
  close(): Promise<void>;
}

class Refusal extends Error {
  constructor(
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

const FIELDS = [
  'model',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'reasoning',
  'store',
  'include',
  'prompt_cache_key',
  'stream',
  'max_output_tokens',
  'temperature',
  'top_p',
  'text',
  'metadata',
  'client_metadata',
  'previous_response_id',
  'truncation',
  'user',
  'safety_identifier',
  'service_tier',
  'background',
];
const reasons = (model: string) => /^(?:o\d|gpt-5)(?!-chat)/.test(model);
const SAMPLING = ['temperature', 'top_p'];

function check(body: Json, issued: Set<string>): void {
  const extra = unknownKeys(body, FIELDS);
  if (extra.length > 0) throw new Refusal(`Unknown parameter: '${extra[0]}'.`, extra[0]);
  if (typeof body.max_output_tokens === 'number' && body.max_output_tokens < 16)
    throw new Refusal(
      `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${body.max_output_tokens} instead.`,
      'max_output_tokens',
    );
  if (reasons(body.model)) {
    const refused = SAMPLING.find((p) => body[p] !== undefined && !(p === 'temperature' && body[p] === 1));
    if (refused) throw new Refusal(`Unsupported parameter: '${refused}' is not supported with this model.`, refused);
  } else if (body.reasoning?.effort !== undefined || body.reasoning?.summary !== undefined) {
    throw new Refusal("Unsupported parameter: 'reasoning.effort' is not supported with this model.", 'reasoning.effort');
  }
  const input: Json[] = typeof body.input === 'string' ? [] : (body.input ?? []);
  const calls = new Set(input.filter((i) => i.type === 'function_call').map((i) => i.call_id));
  for (const item of input) {
    if (item.type === 'function_call_output' && !calls.has(item.call_id) && !body.previous_response_id)
      throw new Refusal(`No tool call found for function call output with call_id ${item.call_id}.`, 'input');
    if (item.type === 'reasoning' && typeof item.encrypted_content === 'string' && !issued.has(item.encrypted_content))
      throw new Refusal(
        'The encrypted content for item rs could not be verified. Reason: Encrypted content could not be decrypted or parsed.',
        'input',
      );
  }
}

function outputOf(body: Json, issued: Set<string>): Json[] {
  const output: Json[] = [];
  if (reasons(body.model)) {
    const item: Json = { type: 'reasoning', id: `rs_${randomBytes(8).toString('hex')}`, summary: [] };
    if ((body.include ?? []).includes('reasoning.encrypted_content')) {
      item.encrypted_content = `gAAAA${randomBytes(24).toString('base64url')}`;
      issued.add(item.encrypted_content);
    }
    output.push(item);
  }
  const input: Json[] = typeof body.input === 'string' ? [{ type: 'message', content: body.input }] : (body.input ?? []);
  const last = input.at(-1);
  const tool = ((body.tools ?? []) as Json[]).find((t) => t.type === 'function');
  if (last?.type === 'function_call_output') {
    const text = `The tool answered ${JSON.stringify(last.output)}.`;
    output.push(message(text));
  } else if (tool && body.tool_choice !== 'none') {
    output.push({
      type: 'function_call',
      id: `fc_${randomBytes(8).toString('hex')}`,
      call_id: `call_${randomBytes(8).toString('hex')}`,
      name: tool.name,
      arguments: JSON.stringify(sampleOf(tool.parameters)),
      status: 'completed',
    });
  } else {
    output.push(message('Hello from the Responses stand-in.'));
  }
  return output;
}

const message = (text: string): Json => ({
  type: 'message',
  id: `msg_${randomBytes(8).toString('hex')}`,
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [] }],
});

function streamAnswer(res: ServerResponse, response: Json): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let sequence = 0;
  const send = (type: string, data: Json) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
  const pending = { ...response, status: 'in_progress', output: [], usage: null };
  send('response.created', { response: pending });
  send('response.in_progress', { response: pending });
  (response.output as Json[]).forEach((item, output_index) => {
    if (item.type === 'message') {
      send('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      const text: string = item.content[0].text;
      const part = { type: 'output_text', text: '', annotations: [] };
      send('response.content_part.added', { item_id: item.id, output_index, content_index: 0, part });
      for (const delta of [text.slice(0, text.length >> 1), text.slice(text.length >> 1)])
        send('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta });
      send('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text });
      send('response.content_part.done', { item_id: item.id, output_index, content_index: 0, part: item.content[0] });
    } else if (item.type === 'function_call') {
      send('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
      const args: string = item.arguments;
      for (const delta of [args.slice(0, args.length >> 1), args.slice(args.length >> 1)])
        send('response.function_call_arguments.delta', { item_id: item.id, output_index, delta });
      send('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: args });
    } else {
      send('response.output_item.added', { output_index, item });
    }
    send('response.output_item.done', { output_index, item });
  });
  send('response.completed', { response });
  res.end();
}

export async function startResponsesStandIn(chatUrl: string): Promise<ResponsesStandIn> {
  const state: ResponsesStandIn = { url: '', requests: [], lastUsage: null, close: async () => undefined };
  const issued = new Set<string>();

  async function passToChat(req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
    const answer = await fetch(`${chatUrl}${req.url}`, {
      method: 'POST',
      headers: { authorization: String(req.headers.authorization ?? ''), 'content-type': 'application/json' },
      body: raw,
    });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    for await (const chunk of answer.body ?? []) res.write(chunk);
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const body = parseBody(raw);
    const error = (status: number, message: string, param: string | null = null) =>
      sendJson(res, status, { error: { message, type: 'invalid_request_error', param, code: null } });
    if (!String(req.headers.authorization ?? '').startsWith('Bearer ')) return error(401, 'You didn’t provide an API key.');
    if (req.method === 'POST' && req.url === '/v1/chat/completions') return passToChat(req, res, raw);
    state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    if (req.method !== 'POST' || req.url !== '/v1/responses') return error(404, `Invalid URL (${req.method} ${req.url})`);
    if (!body || typeof body !== 'object') return error(400, 'We could not parse the JSON body of your request.');
    try {
      check(body, issued);
    } catch (err) {
      if (err instanceof Refusal) return error(400, err.message, err.param);
      throw err;
    }
    const output = outputOf(body, issued);
    const reasoning = reasons(body.model) ? 16 : 0;
    const input_tokens = standInTokens(stringsIn([body.instructions, body.input, body.tools]));
    const output_tokens = standInTokens(stringsIn(output.map((i) => [i.content, i.arguments]))) + reasoning;
    const usage: ResponsesUsage = {
      input_tokens,
      output_tokens,
      total_tokens: input_tokens + output_tokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: reasoning },
    };
    state.lastUsage = usage;
    const response = {
      id: `resp_${randomBytes(12).toString('hex')}`,
      object: 'response',
      created_at: 1_750_000_000,
      status: 'completed',
      model: body.model,
      output,
      usage,
    };
    if (body.stream === true) return streamAnswer(res, response);
    sendJson(res, 200, response);
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
