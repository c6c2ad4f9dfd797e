/**
 * A converted chat request fitted to the upstream model it goes to (model-capabilities.ts): what
 * the target refuses is mapped (max_tokens → max_completion_tokens) or dropped, never sent to fail.
 * What changed is kept per request (`fitNotes`) for the log row's details.
 *
 * Only converted requests are fitted: a client calling in the upstream's own format asked for
 * exactly what it sent.
 */
import type { ClientFormat, RelayInput } from '../types.js';
import { capabilitiesOf, SAMPLING_PARAMS, type CapabilityOverrides } from './model-capabilities.js';

type Body = Record<string, unknown>;

/** The protocol the fitted body is sent in: OpenAI chat as it is, or on through an adapter. */
export type FitTarget = 'openai' | 'claude' | 'gemini' | 'other';

const notes = new WeakMap<RelayInput, string[]>();

/** What the last fitting of this request changed (the attempt that was served is the last). */
export function fitNotes(input: RelayInput): string[] | undefined {
  const list = notes.get(input);
  return list && list.length > 0 ? list : undefined;
}

/** The last assistant message calls tools but carries no thinking blocks to send back. */
function unsignedToolStep(body: Body): boolean {
  const messages = Array.isArray(body.messages) ? (body.messages as Body[]) : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'assistant') continue;
    const calls = Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
    const thinking = Array.isArray(m.thinking_blocks) && m.thinking_blocks.length > 0;
    return calls && !thinking;
  }
  return false;
}

/** Thinking the client asked for in its own format, carried on the chat body by the conversion. */
const asksThinking = (body: Body): boolean => typeof body.reasoning_effort === 'string' && body.reasoning_effort !== 'none';

/**
 * `body` (an OpenAI chat request naming the upstream model) fitted for `target`. `origin` is the
 * client's format: Claude's and Gemini's thinking configs become reasoning_effort on the way, which
 * a model of no known family on an OpenAI channel is not assumed to take.
 */
export function fitToModel(
  input: RelayInput,
  body: Body,
  target: FitTarget,
  overrides: CapabilityOverrides,
  origin: ClientFormat = input.client,
): Body {
  const changed: string[] = [];
  const out: Body = { ...body };
  const drop = (field: string, why: string) => {
    if (out[field] === undefined) return;
    delete out[field];
    changed.push(`${field} dropped: ${why}`);
  };
  const model = typeof body.model === 'string' ? body.model : '';
  const caps = capabilitiesOf(model, overrides);
  if (!caps) {
    if (target === 'openai' && origin !== 'openai') drop('reasoning_effort', 'model not known to reason');
    // OpenAI's own field: a compatible upstream of another vendor may refuse it.
    if (target === 'openai' && input.endpoint === 'responses') drop('prompt_cache_key', `${model} is not known to take it`);
  } else {
    if (caps.thinking === 'none') drop('reasoning_effort', `${model} does not think`);
    for (const param of SAMPLING_PARAMS) {
      if (caps.sampling && !caps.sampling.includes(param)) drop(param, `${model} does not take it`);
    }
    if (caps.oneSampler && out.temperature !== undefined) drop('top_p', `${model} takes temperature or top_p, not both`);
    fitTokenLimit(out, caps.tokenField, caps.outputLimit, target, changed);
  }
  // Claude refuses a tool step without the thinking it was made with: thinking goes off for it.
  if (target === 'claude' && asksThinking(out) && unsignedToolStep(out)) {
    delete out.reasoning_effort;
    changed.push('thinking off: the tool step carries no thinking to send back');
  }
  notes.set(input, changed);
  return out;
}

/**
 * A request the channel takes in the client's own format (OpenAI chat, Claude Messages), fitted
 * when the admin asks (`relay.fit_native_requests`): an agent calling gpt-5 with chat's max_tokens
 * is served instead of refused. Null when nothing changed, so the body goes as received.
 */
export function fitNativeBody(input: RelayInput, body: Body, target: FitTarget, overrides: CapabilityOverrides): Body | null {
  const chat = input.client === 'openai' && input.endpoint === 'chat.completions';
  if (!chat && input.client !== 'claude') return null;
  const fitted = fitToModel(input, body, target, overrides);
  return fitNotes(input) ? fitted : null;
}

function fitTokenLimit(
  out: Body,
  field: 'max_tokens' | 'max_completion_tokens',
  limit: number | null,
  target: FitTarget,
  changed: string[],
): void {
  // Only an OpenAI upstream reads the field's name; the adapters read either.
  if (target === 'openai' && field === 'max_completion_tokens' && out.max_tokens !== undefined) {
    if (out.max_completion_tokens === undefined) out.max_completion_tokens = out.max_tokens;
    delete out.max_tokens;
    changed.push('max_tokens sent as max_completion_tokens');
  }
  if (limit === null) return;
  for (const name of ['max_tokens', 'max_completion_tokens'] as const) {
    const value = out[name];
    if (typeof value === 'number' && value > limit) {
      out[name] = limit;
      changed.push(`${name} ${value} lowered to the model's ${limit}`);
    }
  }
}
