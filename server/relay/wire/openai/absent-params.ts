/**
 * What clients of this family send that upstreams refuse, left out of OpenAI chat and completion
 * bodies before a channel sees them (passed through or converted):
 * - `max_tokens: 0` and `max_completion_tokens: 0`, a console playground's "no limit";
 * - the keys consoles attach to chat messages for their own bookkeeping (`id`, `createAt`,
 *   `createdAt` …): a message keeps OpenAI's fields and the extensions providers of this family read.
 * A body with nothing to leave out is returned as it is (the same object).
 */
const MESSAGE_FIELDS: ReadonlySet<string> = new Set([
  // OpenAI's
  'role',
  'content',
  'name',
  'tool_calls',
  'tool_call_id',
  'function_call',
  'refusal',
  'audio',
  // Read by providers of this family (DeepSeek, Moonshot, Gemini's OpenAI compatibility, Claude relays)
  'reasoning_content',
  'reasoning',
  'thinking_blocks',
  'extra_content',
  'prefix',
  'partial',
  'cache_control',
]);

const ZERO_MEANS_ABSENT = ['max_tokens', 'max_completion_tokens'] as const;

const cleaned = new WeakMap<object, Record<string, unknown>>();

function cleanMessage(message: unknown): unknown {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return message;
  const keys = Object.keys(message);
  if (keys.every((k) => MESSAGE_FIELDS.has(k))) return message;
  return Object.fromEntries(Object.entries(message).filter(([k]) => MESSAGE_FIELDS.has(k)));
}

function clean(body: Record<string, unknown>): Record<string, unknown> {
  let out = body;
  const copy = () => (out === body ? (out = { ...body }) : out);
  for (const field of ZERO_MEANS_ABSENT) if (body[field] === 0) delete copy()[field];
  if (Array.isArray(body.messages)) {
    const messages = body.messages.map(cleanMessage);
    if (messages.some((m, i) => m !== (body.messages as unknown[])[i])) copy().messages = messages;
  }
  return out;
}

/** `body` without what the family treats as absent; worked out once per body. */
export function withoutAbsent(body: Record<string, unknown>): Record<string, unknown> {
  let out = cleaned.get(body);
  if (!out) {
    out = clean(body);
    cleaned.set(body, out);
  }
  return out;
}
