/**
 * OpenAI chat request → Claude Messages request (and the headers it needs). Pure: the settings
 * come in as a parameter, read once from the options by `claudeSettingsFrom`.
 */
import type { OptionStore } from '../../../options/store.js';
import type {
  OpenAIChatMessage,
  OpenAIChatRequest,
  OpenAIContentPart,
  OpenAITool,
  OpenAIToolChoice,
} from '../openai/openai-types.js';
import {
  ANTHROPIC_VERSION,
  isObject,
  type ClaudeContentBlock,
  type ClaudeImageBlock,
  type ClaudeMessage,
  type ClaudeRequest,
  type ClaudeTextBlock,
  type ClaudeTool,
  type ClaudeToolChoice,
} from './claude-api-types.js';
import { structuredOutputFor } from './structured-output.js';
import { budgetForEffort } from '../reasoning-levels.js';
import { thinkingSuffixExempt } from '../thinking-suffix.js';

export interface ClaudeSettings {
  /** `claude.default_max_tokens`: model → max_tokens, with a `default` entry. */
  defaultMaxTokens: Record<string, number>;
  /** `claude.thinking_adapter_enabled`: `-thinking` models and `reasoning_effort` turn thinking on. */
  thinkingAdapterEnabled: boolean;
  /** `claude.thinking_adapter_budget_tokens_percentage`: the share of max_tokens given to thinking. */
  thinkingBudgetPercentage: number;
  /** `claude.model_headers_settings`: model → extra request headers (e.g. `anthropic-beta`). */
  modelHeaders: Record<string, Record<string, string>>;
  /** `global.thinking_model_blacklist`: models whose own name ends in `-thinking` (kept as named). */
  thinkingSuffixExempt?: readonly string[];
  /** The client's own `anthropic-beta` (an OpenAI or Gemini client asking Claude's betas), added to the admin's. */
  clientBeta?: string;
}

/** Comma-separated beta lists joined, each name once. */
export function joinBetas(...lists: Array<string | undefined>): string {
  const names = lists.flatMap((l) => (l ?? '').split(',')).map((b) => b.trim());
  return [...new Set(names.filter((b) => b !== ''))].join(',');
}

export function claudeSettingsFrom(options: Pick<OptionStore, 'json' | 'bool' | 'number'>): ClaudeSettings {
  return {
    defaultMaxTokens: options.json<Record<string, number>>('claude.default_max_tokens'),
    thinkingAdapterEnabled: options.bool('claude.thinking_adapter_enabled'),
    thinkingBudgetPercentage: options.number('claude.thinking_adapter_budget_tokens_percentage'),
    modelHeaders: options.json<Record<string, Record<string, string>>>('claude.model_headers_settings'),
    thinkingSuffixExempt: thinkingSuffixExempt(options),
  };
}

const FALLBACK_MAX_TOKENS = 8192;
const FALLBACK_BUDGET_PERCENTAGE = 0.8;
/** Claude refuses a smaller thinking budget. */
export const MIN_THINKING_BUDGET = 1024;
const THINKING_SUFFIX = '-thinking';
const EFFORTS_WITH_THINKING = new Set(['low', 'medium', 'high']);

const positiveInt = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);

/** max_tokens for a request that names none: by model, then the map's `default`, then 8192. */
export function defaultMaxTokens(settings: ClaudeSettings, model: string): number {
  const map = settings.defaultMaxTokens;
  return positiveInt(map[model]) ?? positiveInt(map.default) ?? FALLBACK_MAX_TOKENS;
}

/**
 * The thinking budget: `percentage` of max_tokens, at least 1024. Claude needs budget < max_tokens;
 * when the floor (or a percentage ≥ 1) breaks that, max_tokens grows by the budget so the visible
 * answer keeps the room the caller asked for.
 */
export function thinkingBudget(maxTokens: number, percentage: number): { budgetTokens: number; maxTokens: number } {
  const share = Number.isFinite(percentage) && percentage > 0 ? percentage : FALLBACK_BUDGET_PERCENTAGE;
  const budgetTokens = Math.max(MIN_THINKING_BUDGET, Math.floor(maxTokens * share));
  return { budgetTokens, maxTokens: budgetTokens < maxTokens ? maxTokens : budgetTokens + maxTokens };
}

/** `data:<type>;base64,<data>` → base64 source; http(s) → url source; anything else is dropped. */
export function imageBlockFromUrl(url: string): ClaudeImageBlock | null {
  if (url.startsWith('data:')) {
    const comma = url.indexOf(',');
    const header = comma === -1 ? '' : url.slice(5, comma);
    if (!header.endsWith(';base64')) return null;
    return { type: 'image', source: { type: 'base64', media_type: header.slice(0, -7), data: url.slice(comma + 1) } };
  }
  return /^https?:\/\//i.test(url) ? { type: 'image', source: { type: 'url', url } } : null;
}

function partsOf(content: OpenAIChatMessage['content']): Array<ClaudeTextBlock | ClaudeImageBlock> {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const out: Array<ClaudeTextBlock | ClaudeImageBlock> = [];
  for (const part of content as OpenAIContentPart[]) {
    if (part.type === 'text' && typeof part.text === 'string' && part.text !== '') out.push({ type: 'text', text: part.text });
    if (part.type === 'image_url') {
      const url = typeof part.image_url === 'string' ? part.image_url : part.image_url?.url;
      const image = typeof url === 'string' ? imageBlockFromUrl(url) : null;
      if (image) out.push(image);
    }
  }
  return out;
}

function textOf(content: OpenAIChatMessage['content']): string {
  return partsOf(content)
    .map((b) => (b.type === 'text' ? b.text : ''))
    .join('');
}

/**
 * Tool-call arguments as Claude's `input` object. Claude refuses anything but an object, so text
 * that is not a JSON object becomes `{}`: the model sees its call without arguments rather than the
 * whole conversation being refused.
 */
export function parseToolArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

interface Turn extends ClaudeMessage {
  content: ClaudeContentBlock[];
}

function turnOf(message: OpenAIChatMessage): Turn | null {
  if (message.role === 'user') return { role: 'user', content: partsOf(message.content) };
  if (message.role === 'tool') {
    const parts = partsOf(message.content);
    const content = parts.every((p) => p.type === 'text') ? parts.map((p) => p.text).join('') : parts;
    const result: ClaudeContentBlock = { type: 'tool_result', tool_use_id: message.tool_call_id ?? '' };
    if (content.length > 0) result.content = content;
    return { role: 'user', content: [result] };
  }
  if (message.role !== 'assistant') return null;
  // Thinking goes back only as signed blocks: Claude refuses thinking without its signature.
  const blocks: ClaudeContentBlock[] = [...(message.thinking_blocks ?? [])];
  blocks.push(...partsOf(message.content).filter((b) => b.type === 'text'));
  for (const call of message.tool_calls ?? []) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input: parseToolArguments(call.function.arguments) });
  }
  return { role: 'assistant', content: blocks };
}

/** Claude wants user and assistant turns to alternate, and tool results first in their user turn. */
function mergeTurns(turns: Turn[]): Turn[] {
  const out: Turn[] = [];
  for (const turn of turns) {
    if (turn.content.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === turn.role) last.content.push(...turn.content);
    else out.push({ role: turn.role, content: [...turn.content] });
  }
  for (const turn of out) {
    if (turn.role !== 'user') continue;
    turn.content = [
      ...turn.content.filter((b) => b.type === 'tool_result'),
      ...turn.content.filter((b) => b.type !== 'tool_result'),
    ];
  }
  return out;
}

function toolsOf(tools: OpenAITool[] | undefined): ClaudeTool[] {
  const out: ClaudeTool[] = [];
  for (const tool of tools ?? []) {
    if (tool.type !== 'function' || !tool.function?.name) continue;
    const converted: ClaudeTool = {
      name: tool.function.name,
      input_schema: tool.function.parameters ?? { type: 'object', properties: {} },
    };
    if (tool.function.description) converted.description = tool.function.description;
    out.push(converted);
  }
  return out;
}

function toolChoiceOf(
  choice: OpenAIToolChoice | undefined,
  parallel: boolean | undefined,
  thinking: boolean,
): ClaudeToolChoice | undefined {
  let out: ClaudeToolChoice | undefined;
  if (choice === 'auto') out = { type: 'auto' };
  else if (choice === 'none') return { type: 'none' };
  else if (choice === 'required') out = { type: 'any' };
  else if (isObject(choice) && choice.function?.name) out = { type: 'tool', name: choice.function.name };
  // With thinking on, Claude accepts only `auto` (or `none`): a forced tool would be refused.
  if (out && thinking && out.type !== 'auto') out = { type: 'auto' };
  if (parallel === false) out = { ...(out ?? { type: 'auto' }), disable_parallel_tool_use: true };
  return out;
}

export interface ClaudeUpstreamRequest {
  body: ClaudeRequest;
  headers: Record<string, string>;
}

/**
 * The Claude request for an OpenAI chat request. `-thinking` on the model name and
 * `reasoning_effort` low/medium/high turn thinking on (when the adapter is enabled); the suffix is
 * taken off the model sent upstream.
 */
export function convertToClaudeMessages(
  request: OpenAIChatRequest,
  settings: ClaudeSettings,
  opts: { nativeStructuredOutput?: boolean } = {},
): ClaudeUpstreamRequest {
  let model = request.model;
  let thinking = false;
  if (settings.thinkingAdapterEnabled) {
    if (model.endsWith(THINKING_SUFFIX) && !settings.thinkingSuffixExempt?.includes(model)) {
      model = model.slice(0, -THINKING_SUFFIX.length);
      thinking = true;
    }
    if (typeof request.reasoning_effort === 'string' && EFFORTS_WITH_THINKING.has(request.reasoning_effort)) thinking = true;
  }

  const system: string[] = [];
  const turns: Turn[] = [];
  for (const message of request.messages) {
    if (message.role === 'system' || message.role === 'developer') {
      const text = textOf(message.content);
      if (text !== '') system.push(text);
      continue;
    }
    const turn = turnOf(message);
    if (turn) turns.push(turn);
  }

  let maxTokens =
    positiveInt(request.max_tokens) ?? positiveInt(request.max_completion_tokens) ?? defaultMaxTokens(settings, model);
  const body: ClaudeRequest = { model, messages: mergeTurns(turns), max_tokens: maxTokens };
  if (system.length > 0) body.system = system.join('\n');
  if (thinking) {
    // An effort asks for its level's budget (reasoning-levels.ts); a `-thinking` model for a share of max_tokens.
    const levelBudget = budgetForEffort(request.reasoning_effort);
    const budget = levelBudget
      ? thinkingBudget(maxTokens, levelBudget / maxTokens)
      : thinkingBudget(maxTokens, settings.thinkingBudgetPercentage);
    maxTokens = budget.maxTokens;
    body.max_tokens = maxTokens;
    body.thinking = { type: 'enabled', budget_tokens: budget.budgetTokens };
    // Thinking allows no temperature or top_k change, and top_p only from 0.95 up.
    if (typeof request.top_p === 'number' && request.top_p >= 0.95) body.top_p = request.top_p;
  } else {
    // OpenAI's scale reaches 2; Claude's stops at 1.
    if (typeof request.temperature === 'number') body.temperature = Math.min(request.temperature, 1);
    if (typeof request.top_p === 'number') body.top_p = request.top_p;
    if (typeof request.top_k === 'number') body.top_k = request.top_k;
  }
  const stops = (typeof request.stop === 'string' ? [request.stop] : (request.stop ?? [])).filter(
    (s): s is string => typeof s === 'string' && s.trim() !== '',
  );
  if (stops.length > 0) body.stop_sequences = stops;
  if (request.stream) body.stream = true;
  const tools = toolsOf(request.tools);
  let choice = tools.length > 0 ? toolChoiceOf(request.tool_choice, request.parallel_tool_calls, thinking) : undefined;
  const structured = structuredOutputFor(request, model, opts.nativeStructuredOutput ?? false);
  if (structured?.outputConfig) body.output_config = structured.outputConfig;
  if (structured?.tool) {
    // The answer tool is forced when it is the only one; beside the caller's tools, some tool is.
    // Thinking allows no forced tool: the model is then left to choose it.
    const forced = tools.length === 0 ? { type: 'tool' as const, name: structured.tool.name } : { type: 'any' as const };
    if (choice?.type !== 'none') choice = thinking ? { type: 'auto' } : forced;
    tools.push(structured.tool);
  }
  if (tools.length > 0) {
    body.tools = tools;
    if (choice) body.tool_choice = choice;
  }
  if (typeof request.user === 'string' && request.user !== '') body.metadata = { user_id: request.user };

  const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION };
  const extra = settings.modelHeaders[model] ?? settings.modelHeaders[request.model];
  if (isObject(extra)) {
    for (const [name, value] of Object.entries(extra)) if (typeof value === 'string') headers[name.toLowerCase()] = value;
  }
  const betas = joinBetas(headers['anthropic-beta'], settings.clientBeta);
  if (betas !== '') headers['anthropic-beta'] = betas;
  return { body, headers };
}
