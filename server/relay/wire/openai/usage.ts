/**
 * Reading usage out of OpenAI-format answers, and the text a local count needs when an upstream
 * gives none. Pure functions over parsed JSON.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { Endpoint } from '../../endpoints.js';

type Json = Record<string, unknown>;

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);

/** Usage from an answer or a stream chunk (chat, completions, embeddings, responses), or null. */
export function usageOf(payload: unknown): Usage | null {
  const root = obj(payload);
  if (!root) return null;
  const usage = obj(root.usage) ?? obj(obj(root.response)?.usage);
  if (!usage) return null;
  if ('input_tokens' in usage || 'output_tokens' in usage) {
    const details = obj(usage.input_tokens_details);
    return {
      promptTokens: num(usage.input_tokens),
      completionTokens: num(usage.output_tokens),
      cachedTokens: num(details?.cached_tokens),
    };
  }
  if (!('prompt_tokens' in usage) && !('total_tokens' in usage)) return null;
  const details = obj(usage.prompt_tokens_details);
  const prompt = 'prompt_tokens' in usage ? num(usage.prompt_tokens) : num(usage.total_tokens);
  return { promptTokens: prompt, completionTokens: num(usage.completion_tokens), cachedTokens: num(details?.cached_tokens) };
}

function textOfContent(content: unknown, out: string[]): void {
  if (typeof content === 'string') out.push(content);
  else if (Array.isArray(content)) {
    for (const part of content) {
      const p = obj(part);
      if (p && typeof p.text === 'string') out.push(p.text);
      else if (typeof part === 'string') out.push(part);
    }
  }
}

/** The text parts of one Gemini `Content` ({parts: [{text}]}). */
function geminiText(content: unknown, out: string[]): void {
  const parts = obj(content)?.parts;
  if (Array.isArray(parts)) textOfContent(parts, out);
}

/** The prompt's text, for estimates and local counts, in any client format (OpenAI, Claude, Gemini). */
export function promptText(endpoint: Endpoint, body: Json): string {
  const out: string[] = [];
  if (Array.isArray(body.messages)) {
    for (const m of body.messages) textOfContent(obj(m)?.content, out);
  }
  if (typeof body.instructions === 'string') out.push(body.instructions);
  // Claude's system prompt; Gemini's system instruction, contents and embedding requests.
  textOfContent(body.system, out);
  geminiText(body.systemInstruction ?? body.system_instruction, out);
  if (Array.isArray(body.contents)) for (const c of body.contents) geminiText(c, out);
  geminiText(body.content, out);
  if (Array.isArray(body.requests)) for (const r of body.requests) geminiText(obj(r)?.content, out);
  if (endpoint !== 'chat.completions') {
    textOfContent(body.prompt, out);
    textOfContent(body.input, out);
    if (typeof body.query === 'string') out.push(body.query);
    if (Array.isArray(body.documents)) textOfContent(body.documents, out);
    if (Array.isArray(body.input)) for (const item of body.input) textOfContent(obj(item)?.content, out);
  }
  return out.join('\n');
}

/** Completion text carried by one stream chunk or a whole answer (chat, completions, responses). */
export function completionText(payload: unknown): string {
  const root = obj(payload);
  if (!root) return '';
  let text = '';
  if (Array.isArray(root.choices)) {
    for (const c of root.choices) {
      const choice = obj(c);
      if (!choice) continue;
      const delta = obj(choice.delta) ?? obj(choice.message);
      if (delta) {
        if (typeof delta.content === 'string') text += delta.content;
        if (typeof delta.reasoning_content === 'string') text += delta.reasoning_content;
        if (Array.isArray(delta.tool_calls)) text += JSON.stringify(delta.tool_calls);
      }
      if (typeof choice.text === 'string') text += choice.text;
    }
  }
  if (root.type === 'response.output_text.delta' && typeof root.delta === 'string') text += root.delta;
  // Whole answers of the Responses API (output items), Claude (content blocks) and Gemini (candidates).
  if (Array.isArray(root.output)) {
    for (const item of root.output) {
      const it = obj(item);
      if (!it) continue;
      if (typeof it.arguments === 'string') text += it.arguments;
      const parts: string[] = [];
      textOfContent(it.content, parts);
      textOfContent(it.summary, parts);
      text += parts.join('');
    }
  }
  if (Array.isArray(root.content)) {
    const parts: string[] = [];
    textOfContent(root.content, parts);
    for (const block of root.content) {
      const b = obj(block);
      if (typeof b?.thinking === 'string') parts.push(b.thinking);
      if (b?.type === 'tool_use' && b.input !== undefined) parts.push(JSON.stringify(b.input));
    }
    text += parts.join('');
  }
  if (Array.isArray(root.candidates)) {
    const parts: string[] = [];
    for (const c of root.candidates) geminiText(obj(c)?.content, parts);
    text += parts.join('');
  }
  return text;
}
