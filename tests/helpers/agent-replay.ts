/**
 * The coding agents' captured requests (tests/fixtures/agents/<cli>/, recorded by
 * scripts/agents/run.mjs) replayed against the gateway: sent as captured (path, headers, body, its
 * stream flag) with only the key and the model changed, the answer read whole or assembled from its
 * event stream, and the follow-up built the way that agent builds it after a tool call — Claude Code
 * sends its blocks back with the results, Codex every output item with the outputs, Gemini CLI its
 * parts without thoughts, Qwen Code the assistant's text and calls and tool messages.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Json = Record<string, any>;

export type Cli = 'claude' | 'codex' | 'gemini' | 'qwen';

export interface Capture {
  cli: Cli;
  file: string;
  path: string;
  headers: Record<string, string>;
  body: Json;
}

const DIR = fileURLToPath(new URL('../fixtures/agents/', import.meta.url));

/** Every captured request, by CLI and file name. */
export function loadCaptures(): Capture[] {
  return readdirSync(DIR).flatMap((cli) =>
    readdirSync(`${DIR}${cli}`)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((file) => {
        const j = JSON.parse(readFileSync(`${DIR}${cli}/${file}`, 'utf8'));
        return { cli: cli as Cli, file, path: j.path, headers: j.headers, body: j.body };
      }),
  );
}

/** Headers the replaying client sets itself, or that carried the redacted key. */
const OWN = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'x-api-key', 'authorization', 'x-goog-api-key']);

export interface Answer {
  status: number;
  /** The answer as the non-streamed shape of the client's format (assembled when streamed). */
  body: Json;
  streamed: boolean;
}

/** Sends `body` as the capture was sent, to `model`, with `key`. */
export async function replay(base: string, key: string, capture: Capture, model: string, body: Json): Promise<Answer> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(capture.headers)) if (!OWN.has(name)) headers[name] = value;
  if ('x-api-key' in capture.headers) headers['x-api-key'] = key;
  else if ('x-goog-api-key' in capture.headers) headers['x-goog-api-key'] = key;
  else headers.authorization = `Bearer ${key}`;
  const path = capture.cli === 'gemini' ? capture.path.replace(/models\/[^:]+:/, `models/${model}:`) : capture.path;
  const sent = capture.cli === 'gemini' ? body : { ...body, model };
  const res = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(sent) });
  const text = await res.text();
  const streamed = (res.headers.get('content-type') ?? '').includes('text/event-stream');
  if (!streamed) return { status: res.status, body: text ? JSON.parse(text) : {}, streamed };
  return { status: res.status, body: ASSEMBLE[capture.cli](events(text)), streamed };
}

/** The JSON data of each SSE event. */
function events(text: string): Json[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((e) =>
      e
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('\n'),
    )
    .filter((d) => d !== '' && d !== '[DONE]')
    .map((d) => JSON.parse(d));
}

const ASSEMBLE: Record<Cli, (events: Json[]) => Json> = {
  claude(list) {
    const blocks: Json[] = [];
    const json: string[] = [];
    let stop: string | null = null;
    for (const e of list) {
      if (e.type === 'error') return e;
      if (e.type === 'content_block_start') {
        blocks[e.index] = { ...e.content_block };
        json[e.index] = '';
      } else if (e.type === 'content_block_delta') {
        const b = blocks[e.index]!;
        const d = e.delta;
        if (d.type === 'text_delta') b.text += d.text;
        else if (d.type === 'thinking_delta') b.thinking += d.thinking;
        else if (d.type === 'signature_delta') b.signature = d.signature;
        else if (d.type === 'input_json_delta') json[e.index] += d.partial_json;
      } else if (e.type === 'content_block_stop') {
        const b = blocks[e.index]!;
        if (b.type === 'tool_use') b.input = json[e.index] ? JSON.parse(json[e.index]!) : {};
      } else if (e.type === 'message_delta') stop = e.delta?.stop_reason ?? stop;
    }
    return { type: 'message', role: 'assistant', content: blocks.filter(Boolean), stop_reason: stop };
  },
  codex(list) {
    const done = list.find((e) => e.type === 'response.completed' || e.type === 'response.failed');
    return done?.response ?? list.find((e) => e.type === 'error') ?? {};
  },
  gemini(list) {
    const error = list.find((e) => e.error);
    if (error) return error;
    const parts = list.flatMap((e) => (e.candidates?.[0]?.content?.parts ?? []) as Json[]);
    return { candidates: [{ content: { role: 'model', parts } }] };
  },
  qwen(list) {
    const error = list.find((e) => e.error);
    if (error) return error;
    let content = '';
    const calls: Json[] = [];
    for (const e of list) {
      const delta = e.choices?.[0]?.delta;
      if (!delta) continue;
      if (typeof delta.content === 'string') content += delta.content;
      for (const piece of (delta.tool_calls ?? []) as Json[]) {
        const call = (calls[piece.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
        if (piece.id) call.id = piece.id;
        if (piece.function?.name) call.function.name = piece.function.name;
        call.function.arguments += piece.function?.arguments ?? '';
      }
    }
    const message: Json = { role: 'assistant', content: content || null };
    if (calls.length > 0) message.tool_calls = calls;
    return { choices: [{ index: 0, message }] };
  },
};

const OUTPUT = 'README.md\npackage.json';

/** The agent's next request after `answer`; null when the answer holds no tool call. */
export const FOLLOW_UP: Record<Cli, (body: Json, answer: Json) => Json | null> = {
  claude(body, answer) {
    const uses = (answer.content as Json[]).filter((b) => b.type === 'tool_use');
    if (uses.length === 0) return null;
    const results = uses.map((u) => ({ type: 'tool_result', tool_use_id: u.id, content: OUTPUT }));
    return {
      ...body,
      messages: [...body.messages, { role: 'assistant', content: answer.content }, { role: 'user', content: results }],
    };
  },
  codex(body, answer) {
    const output = answer.output as Json[];
    const calls = output.filter((i) => i.type === 'function_call');
    if (calls.length === 0) return null;
    const echoed = output.map(({ status: _s, ...item }) => item);
    const results = calls.map((c) => ({ type: 'function_call_output', call_id: c.call_id, output: OUTPUT }));
    return { ...body, input: [...body.input, ...echoed, ...results] };
  },
  gemini(body, answer) {
    const parts = (answer.candidates?.[0]?.content?.parts ?? []) as Json[];
    const calls = parts.filter((p) => p.functionCall).map((p) => p.functionCall);
    if (calls.length === 0) return null;
    const results = calls.map((c) => ({ functionResponse: { id: c.id, name: c.name, response: { output: OUTPUT } } }));
    return {
      ...body,
      contents: [...body.contents, { role: 'model', parts: parts.filter((p) => !p.thought) }, { role: 'user', parts: results }],
    };
  },
  qwen(body, answer) {
    const message = answer.choices?.[0]?.message as Json | undefined;
    if (!message?.tool_calls?.length) return null;
    const results = (message.tool_calls as Json[]).map((c) => ({ role: 'tool', tool_call_id: c.id, content: OUTPUT }));
    // The agent keeps its own history: the message's text and calls, no extension fields (thinking_blocks).
    const kept = { role: 'assistant', content: message.content, tool_calls: message.tool_calls };
    return { ...body, messages: [...body.messages, kept, ...results] };
  },
};
