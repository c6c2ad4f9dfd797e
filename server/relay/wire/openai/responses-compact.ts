/**
 * Codex's remote compaction (`POST /v1/responses/compact`). A channel with the Responses API gets
 * the request at its own `/responses/compact`; any other channel gets a summarising chat call, whose
 * answer comes back as the documented compaction resource: `{ id, object: 'response.compaction',
 * created_at, output, usage }`, `output` being the conversation's user messages followed by one
 * `{ type: 'compaction', id, encrypted_content }` item.
 *
 * The gateway's `encrypted_content` is the summary, marked and base64url-encoded (the caller's own
 * conversation, nothing secret): a later request carrying the item reads it back as a user message,
 * whether converted to chat (responses-request.ts) or sent to a Responses upstream, which could not
 * open it. An upstream's own compaction content is opaque here and goes only where it came from.
 */
import { randomBytes } from 'node:crypto';
import type { OpenAIChatRequest } from './openai-types.js';
import { relayErrors } from '../../errors.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const MARK = 'gw-compaction.v1.';
const SUMMARY_INTRO = 'Summary of the earlier part of this conversation (compacted):\n\n';

const SUMMARISE = [
  'You compact the transcript of a coding agent’s session so that another model can continue the work.',
  'Write a handoff summary: the user’s goals and constraints, what was done (files, commands, results),',
  'decisions and their reasons, errors met, and what remains to do next. Keep identifiers, paths and',
  'exact values. Answer with the summary only.',
].join(' ');

export function sealSummary(summary: string): string {
  return MARK + Buffer.from(summary, 'utf8').toString('base64url');
}

/** The summary in a compaction item this gateway made; null for another's (or none). */
export function openSummary(item: Json): string | null {
  const content = str(item.encrypted_content);
  if (item.type !== 'compaction' || !content.startsWith(MARK)) return null;
  return SUMMARY_INTRO + Buffer.from(content.slice(MARK.length), 'base64url').toString('utf8');
}

/** Input items with this gateway's compaction items as the user messages they stand for. */
export function withReadableCompactions(body: Json): Json {
  if (!Array.isArray(body.input) || !body.input.some((i) => openSummary(obj(i) ?? {}) !== null)) return body;
  const input = body.input.map((raw) => {
    const summary = openSummary(obj(raw) ?? {});
    return summary === null ? raw : { type: 'message', role: 'user', content: [{ type: 'input_text', text: summary }] };
  });
  return { ...body, input };
}

const hasInput = (body: Json): boolean =>
  body.input !== undefined && body.input !== '' && !(Array.isArray(body.input) && body.input.length === 0);

/** A compaction asked by previous_response_id alone: only the upstream that stored that response can serve it. */
export const compactsById = (body: Json | null): boolean =>
  !!body && !hasInput(body) && typeof body.previous_response_id === 'string' && body.previous_response_id !== '';

/**
 * Why a Responses request cannot go to a channel without the Responses API (converted to chat),
 * or null when it can: what it refers to lives only in OpenAI's API. Said to the caller rather
 * than sent without it.
 */
export function unconvertible(body: Json | null, compact: boolean): string | null {
  if (!body) return null;
  if (compact && compactsById(body))
    return 'previous_response_id alone can be compacted only on a channel with the Responses API: send the conversation as input';
  const foreign = Array.isArray(body.input)
    ? body.input.some((i) => obj(i)?.type === 'compaction' && openSummary(obj(i)!) === null)
    : false;
  return foreign
    ? 'a compaction item made by the Responses API can be read only there, not on this model’s channels: compact here (POST /v1/responses/compact) or send the history'
    : null;
}

/** The URL of a Responses upstream's compaction, from its `/responses` URL (a query kept last). */
export const compactUrl = (url: string): string => url.replace(/(\?.*)?$/, (query) => `/compact${query}`);

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts = Array.isArray(content) ? content : [];
  return parts
    .map((p) => obj(p))
    .map((p) => str(p?.text) || str(p?.refusal) || (p?.type === 'input_image' ? '[image]' : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/** One transcript line per item the model should know of; reasoning and opaque items left out. */
function transcriptLine(item: Json): string | null {
  const type = item.type ?? 'message';
  if (type === 'message') return `${str(item.role) || 'user'}: ${textOf(item.content)}`;
  if (type === 'function_call' || type === 'custom_tool_call')
    return `assistant called ${str(item.name)}: ${str(item.arguments) || str(item.input)}`;
  if (type === 'function_call_output' || type === 'custom_tool_call_output')
    return `tool result: ${typeof item.output === 'string' ? item.output : textOf(item.output)}`;
  if (type === 'compaction') return openSummary(item);
  return null;
}

/** The chat call that stands in for compaction on a channel without the Responses API. */
export function compactionChatRequest(body: Json): OpenAIChatRequest {
  const items =
    typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : Array.isArray(body.input) ? body.input : [];
  const lines = items.map((i) => transcriptLine(obj(i) ?? {})).filter((l): l is string => l !== null && l.trim() !== '');
  return {
    model: str(body.model),
    messages: [
      { role: 'system', content: SUMMARISE },
      { role: 'user', content: `Transcript:\n\n${lines.join('\n\n')}` },
    ],
  };
}

/** The user's messages of a compaction request, as Responses output items. */
function userMessages(body: Json): Json[] {
  if (typeof body.input === 'string')
    return [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: body.input }] }];
  return (Array.isArray(body.input) ? body.input : [])
    .map((i) => obj(i))
    .filter((i): i is Json => i !== null && (i.type ?? 'message') === 'message' && i.role === 'user');
}

/** A chat completion summarising the conversation, as the compaction resource. */
export function compactionAnswer(answer: unknown, request: Json | null): Json {
  const completion = obj(answer);
  const choice = obj(Array.isArray(completion?.choices) ? completion.choices[0] : null);
  const summary = str(obj(choice?.message)?.content);
  // Nothing to carry the conversation on: not an answer, so neither served nor billed.
  if (summary.trim() === '') throw relayErrors.upstream(502, 'the upstream answered the compaction with an empty summary');
  const usage = obj(completion?.usage);
  const input = Number(usage?.prompt_tokens ?? 0);
  const output = Number(usage?.completion_tokens ?? 0);
  const cached = Number(obj(usage?.prompt_tokens_details)?.cached_tokens ?? 0);
  const reasoning = Number(obj(usage?.completion_tokens_details)?.reasoning_tokens ?? 0);
  return {
    id: `resp_${randomBytes(24).toString('hex')}`,
    object: 'response.compaction',
    created_at: Math.floor(Date.now() / 1000),
    output: [
      ...userMessages(request ?? {}),
      { type: 'compaction', id: `cmp_${randomBytes(24).toString('hex')}`, encrypted_content: sealSummary(summary) },
    ],
    usage: {
      input_tokens: input,
      input_tokens_details: { cached_tokens: cached },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: reasoning },
      total_tokens: input + output,
    },
  };
}
