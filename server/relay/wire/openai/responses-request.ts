/**
 * An OpenAI Responses request (`POST /v1/responses`) as an OpenAI chat request, for channels that
 * do not serve the Responses API themselves: `instructions` becomes the system message, `input`
 * (a string or a list of items) the messages, function tools and tool choice their chat shapes,
 * `max_output_tokens`, `reasoning.effort` and `text.format` their chat fields.
 *
 * Reasoning items sent back by the client travel on the next assistant message as
 * `reasoning_content`, and with their `encrypted_content` (a thinking signature this gateway put
 * there) as `thinking_blocks`, so Claude's thinking with tool use survives a round trip.
 *
 * What chat cannot express is left out: hosted tools (web search, file search, …), files by id,
 * `previous_response_id` (nothing is stored here), `store`, `metadata`, `include`, `truncation`.
 * Pure: never throws, whatever the body holds.
 */
import type {
  OpenAIChatMessage,
  OpenAIChatRequest,
  OpenAIContentPart,
  OpenAIResponseFormat,
  OpenAIThinkingBlock,
  OpenAITool,
  JsonObject,
  OpenAIToolCall,
} from './openai-types.js';
import { openSummary } from './responses-compact.js';
import { chatCallName, flattenNamespaces } from './namespace-tools.js';

/** Marks a Claude `redacted_thinking` block's data carried as a reasoning item's `encrypted_content`. */
export const REDACTED_THINKING_PREFIX = 'redacted_thinking:';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A chat content part; `file` is understood by the converters to providers that take documents. */
type ChatPart = OpenAIContentPart;
type ChatMessage = OpenAIChatMessage;
type ChatFromResponses = OpenAIChatRequest;

/** Content parts of a Responses message as chat parts (text, images by URL, inline files). */
function chatParts(content: unknown): ChatPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const parts: ChatPart[] = [];
  for (const raw of Array.isArray(content) ? content : []) {
    const part = obj(raw);
    if (!part) continue;
    switch (part.type) {
      case 'input_text':
      case 'output_text':
      case 'text':
        parts.push({ type: 'text', text: str(part.text) });
        break;
      case 'refusal':
        parts.push({ type: 'text', text: str(part.refusal) });
        break;
      case 'input_image': {
        const url = typeof part.image_url === 'string' ? part.image_url : str(obj(part.image_url)?.url);
        if (url === '') break;
        const image: { url: string; detail?: string } = { url };
        if (typeof part.detail === 'string') image.detail = part.detail;
        parts.push({ type: 'image_url', image_url: image });
        break;
      }
      case 'input_file':
        if (typeof part.file_data === 'string' && part.file_data !== '') {
          const file: { file_data: string; filename?: string } = { file_data: part.file_data };
          if (typeof part.filename === 'string') file.filename = part.filename;
          parts.push({ type: 'file', file });
        }
        break;
    }
  }
  return parts;
}

/** The text of parts, one line per part (for system and assistant messages, which carry text only). */
const textOf = (parts: ChatPart[]): string => parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');

/** User content: a plain string when it is one piece of text, the parts otherwise. */
function userContent(content: unknown): string | ChatPart[] {
  if (typeof content === 'string') return content;
  const parts = chatParts(content);
  const only = parts[0];
  return parts.length === 1 && only?.type === 'text' ? only.text : parts;
}

/** The text of a function call's output (a string, or a list of content parts). */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return textOf(chatParts(output));
  return output === undefined || output === null ? '' : JSON.stringify(output);
}

/** Builds the chat messages, merging reasoning, text and function calls of one assistant turn. */
class MessageList {
  readonly messages: ChatMessage[] = [];
  private assistant: ChatMessage | null = null;

  private turn(): ChatMessage {
    if (!this.assistant) {
      this.assistant = { role: 'assistant', content: null };
      this.messages.push(this.assistant);
    }
    return this.assistant;
  }

  add(message: ChatMessage): void {
    this.assistant = null;
    this.messages.push(message);
  }

  reasoning(item: Json): void {
    // Reasoning opens a new turn unless the current one has nothing but reasoning yet.
    if (this.assistant && (this.assistant.content || this.assistant.tool_calls)) this.assistant = null;
    const turn = this.turn();
    const texts = [item.summary, item.content].flatMap((list) =>
      (Array.isArray(list) ? list : []).map((p) => str(obj(p)?.text)).filter((t) => t !== ''),
    );
    const text = texts.join('\n\n');
    if (text !== '') turn.reasoning_content = (turn.reasoning_content ?? '') + text;
    const sealed = typeof item.encrypted_content === 'string' ? item.encrypted_content : '';
    if (sealed !== '') {
      const block: OpenAIThinkingBlock = sealed.startsWith(REDACTED_THINKING_PREFIX)
        ? { type: 'redacted_thinking', data: sealed.slice(REDACTED_THINKING_PREFIX.length) }
        : { type: 'thinking', thinking: text, signature: sealed };
      turn.thinking_blocks = [...(turn.thinking_blocks ?? []), block];
    }
  }

  assistantText(text: string): void {
    if (this.assistant && (this.assistant.content || this.assistant.tool_calls)) this.assistant = null;
    this.turn().content = text;
  }

  call(call: OpenAIToolCall): void {
    const turn = this.turn();
    turn.tool_calls = [...(turn.tool_calls ?? []), call];
  }
}

function messagesOf(body: Json): ChatMessage[] {
  const list = new MessageList();
  if (typeof body.instructions === 'string' && body.instructions !== '') {
    list.add({ role: 'system', content: body.instructions });
  }
  if (typeof body.input === 'string') {
    list.add({ role: 'user', content: body.input });
    return list.messages;
  }
  for (const raw of Array.isArray(body.input) ? body.input : []) {
    const item = obj(raw);
    if (!item) continue;
    const type = item.type ?? 'message';
    if (type === 'message') {
      const role = item.role;
      if (role === 'assistant') list.assistantText(textOf(chatParts(item.content)));
      else if (role === 'system' || role === 'developer') list.add({ role: 'system', content: textOf(chatParts(item.content)) });
      else list.add({ role: 'user', content: userContent(item.content) });
    } else if (type === 'function_call') {
      list.call({
        id: str(item.call_id) || str(item.id),
        type: 'function',
        function: { name: chatCallName(item), arguments: str(item.arguments) || '{}' },
      });
    } else if (type === 'function_call_output') {
      list.add({ role: 'tool', tool_call_id: str(item.call_id), content: outputText(item.output) });
    } else if (type === 'reasoning') {
      list.reasoning(item);
    } else if (type === 'compaction') {
      // Only this gateway's compactions can be read; another's is opaque outside its own API.
      const summary = openSummary(item);
      if (summary !== null) list.add({ role: 'user', content: summary });
    }
  }
  return list.messages;
}

function toolsOf(tools: unknown): OpenAITool[] | undefined {
  const out: OpenAITool[] = [];
  // Codex's namespace tools go as functions of flat names (namespace-tools.ts).
  for (const raw of flattenNamespaces(tools)) {
    const tool = obj(raw);
    if (tool?.type !== 'function' || typeof tool.name !== 'string') continue;
    const fn: OpenAITool['function'] = { name: tool.name };
    if (typeof tool.description === 'string') fn.description = tool.description;
    const parameters = obj(tool.parameters);
    // A client's JSON, parsed from JSON: JSON values all the way down.
    if (parameters) fn.parameters = parameters as JsonObject;
    if (typeof tool.strict === 'boolean') fn.strict = tool.strict;
    out.push({ type: 'function', function: fn });
  }
  return out.length > 0 ? out : undefined;
}

function toolChoiceOf(choice: unknown): OpenAIChatRequest['tool_choice'] {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice;
  const c = obj(choice);
  if (c?.type === 'function' && typeof c.name === 'string') return { type: 'function', function: { name: c.name } };
  if (c?.type === 'allowed_tools' && (c.mode === 'auto' || c.mode === 'required')) return c.mode;
  return undefined;
}

function responseFormatOf(text: unknown): OpenAIResponseFormat | undefined {
  const format = obj(obj(text)?.format);
  if (format?.type === 'json_object') return { type: 'json_object' };
  if (format?.type !== 'json_schema') return undefined;
  const schema: Json = { name: str(format.name) || 'response', schema: obj(format.schema) ?? {} };
  if (typeof format.description === 'string') schema.description = format.description;
  if (typeof format.strict === 'boolean') schema.strict = format.strict;
  return { type: 'json_schema', json_schema: schema as Extract<OpenAIResponseFormat, { type: 'json_schema' }>['json_schema'] };
}

/** A Responses request body as an OpenAI chat request. */
export function convertResponsesToChat(body: Json): ChatFromResponses {
  const chat: ChatFromResponses = { model: str(body.model), messages: messagesOf(body) };
  if (body.stream === true) chat.stream = true;
  if (typeof body.max_output_tokens === 'number') chat.max_tokens = body.max_output_tokens;
  if (typeof body.temperature === 'number') chat.temperature = body.temperature;
  if (typeof body.top_p === 'number') chat.top_p = body.top_p;
  const tools = toolsOf(body.tools);
  if (tools) {
    chat.tools = tools;
    const choice = toolChoiceOf(body.tool_choice);
    if (choice !== undefined) chat.tool_choice = choice;
    if (typeof body.parallel_tool_calls === 'boolean') chat.parallel_tool_calls = body.parallel_tool_calls;
  }
  const effort = obj(body.reasoning)?.effort;
  if (typeof effort === 'string') chat.reasoning_effort = effort;
  const format = responseFormatOf(body.text);
  if (format) chat.response_format = format;
  // Codex keys its prompt cache per conversation; chat takes the same field (fit-to-model.ts keeps
  // it for OpenAI's own models only).
  if (typeof body.prompt_cache_key === 'string' && body.prompt_cache_key !== '') chat.prompt_cache_key = body.prompt_cache_key;
  const user = typeof body.user === 'string' ? body.user : body.safety_identifier;
  if (typeof user === 'string' && user !== '') chat.user = user;
  return chat;
}
