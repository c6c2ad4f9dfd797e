/**
 * The sensitive-word filter (CheckSensitiveEnabled, CheckSensitiveOnPromptEnabled,
 * CheckSensitiveOnCompletionEnabled, StopOnSensitiveEnabled, SensitiveWords one per line):
 * - a prompt holding a listed word is refused with 400 before anything is charged;
 * - answers, when checked: a whole answer has the words masked (`*` per character), or with
 *   StopOnSensitiveEnabled is withheld (400 in the client's error shape, the call still billed);
 *   a stream with StopOnSensitiveEnabled is cut before the first event completing a listed word
 *   and closed the way the client's protocol ends a stream.
 * The word list is compiled into one matcher per distinct SensitiveWords value and reused.
 */
import type { ServerResponse } from 'node:http';
import type { GatewayContext } from '../../context.js';
import type { Endpoint } from '../endpoints.js';
import type { RelayInput } from '../types.js';
import { refuse } from '../../http/errors.js';
import { renderError, type WireFormat } from '../../http/wire.js';
import { promptText } from '../wire/openai/usage.js';
import { watchCompletion, type CompletionWatch } from '../call/forward-answer.js';
import { WordMatcher } from './word-matcher.js';
import { clientFormat } from '../wire/registry.js';

type Json = Record<string, unknown>;

const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);

/** Endpoints whose answers are generated text. */
const COMPLETION_ENDPOINTS: ReadonlySet<Endpoint> = new Set(['chat.completions', 'completions', 'responses']);
/** A moderation call exists to judge a text: refusing it for its words would defeat it. */
const UNCHECKED_PROMPTS: ReadonlySet<Endpoint> = new Set(['moderations']);
/** Keys whose string values are generated text in OpenAI, Responses, Claude and Gemini answers. */
const TEXT_KEYS = new Set(['content', 'text', 'reasoning_content', 'refusal']);
const NAMED_WORDS = 5;

const compiled = new Map<string, WordMatcher>();

/** SensitiveWords as a list: one word a line, trimmed, blanks skipped. */
export function sensitiveWordList(raw: string): string[] {
  return raw
    .split(/\r?\n/)
    .map((w) => w.trim())
    .filter((w) => w !== '');
}

/** The matcher for a SensitiveWords value, compiled once; null when the list is empty. */
export function matcherFor(raw: string): WordMatcher | null {
  let matcher = compiled.get(raw);
  if (!matcher) {
    matcher = new WordMatcher(sensitiveWordList(raw));
    // Old lists are dropped: an admin edits the list a few times, not per request.
    if (compiled.size >= 4) compiled.clear();
    compiled.set(raw, matcher);
  }
  return matcher.empty ? null : matcher;
}

function named(words: string[]): string {
  const shown = words.slice(0, NAMED_WORDS).join('、');
  return words.length > NAMED_WORDS ? `${shown} 等` : shown;
}

/** Everything the caller wrote, in any client format (promptText reads OpenAI, Claude and Gemini bodies). */
export function promptOf(input: RelayInput): string {
  return input.body ? promptText(input.endpoint, input.body) : '';
}

function checks(
  ctx: GatewayContext,
  which: 'CheckSensitiveOnPromptEnabled' | 'CheckSensitiveOnCompletionEnabled',
): WordMatcher | null {
  const o = ctx.options;
  if (!o.bool('CheckSensitiveEnabled') || !o.bool(which)) return null;
  return matcherFor(o.string('SensitiveWords'));
}

/** Refuses a prompt holding a listed word (400, `sensitive_words_detected`). */
export function checkPromptSensitive(ctx: GatewayContext, input: RelayInput): void {
  if (UNCHECKED_PROMPTS.has(input.endpoint)) return;
  checkTextSensitive(ctx, promptOf(input));
}

/** The same check over a prompt given as text (task submissions: drawing and music prompts). */
export function checkTextSensitive(ctx: GatewayContext, text: string): void {
  const matcher = checks(ctx, 'CheckSensitiveOnPromptEnabled');
  if (!matcher || text === '') return;
  const words = matcher.find(text);
  if (words.length > 0) throw refuse(400, 'sensitive_words_detected', { words: named(words) }, 'invalid_request_error');
}

/** A refused answer in the client's own error shape. */
function refusedAnswer(input: RelayInput, words: string): { status: number; body: string } {
  const wire: WireFormat = input.client;
  const { status, body } = renderError(wire, refuse(400, 'sensitive_words_in_answer', { words }, 'invalid_request_error'));
  return { status, body: JSON.stringify(body) };
}

/** Masks listed words in the generated-text fields of an answer, in place; true when anything changed. */
function maskAnswer(node: unknown, matcher: WordMatcher, found: Set<string>): boolean {
  let changed = false;
  if (Array.isArray(node)) {
    for (const item of node) changed = maskAnswer(item, matcher, found) || changed;
    return changed;
  }
  const o = obj(node);
  if (!o) return false;
  for (const [key, value] of Object.entries(o)) {
    if (typeof value === 'string') {
      if (!TEXT_KEYS.has(key)) continue;
      const masked = matcher.mask(value);
      if (masked.words.length === 0) continue;
      for (const w of masked.words) found.add(w);
      o[key] = masked.text;
      changed = true;
    } else if (value && typeof value === 'object') changed = maskAnswer(value, matcher, found) || changed;
  }
  return changed;
}

/** One answer's watch: the matcher's state runs across the stream's events. */
class SensitiveWatch implements CompletionWatch {
  private state = 0;
  /** Listed words seen in the answer. */
  readonly found = new Set<string>();

  constructor(
    private readonly matcher: WordMatcher,
    private readonly input: RelayInput,
    private readonly stop: boolean,
  ) {}

  stopAt(text: string): boolean {
    if (!this.stop) return false;
    for (let i = 0; i < text.length; i++) {
      this.state = this.matcher.step(this.state, text.charCodeAt(i));
      if (this.matcher.matches(this.state)) {
        this.matcher.collect(this.state, this.found);
        return true;
      }
    }
    return false;
  }

  stoppedTail(): string {
    return clientFormat(this.input.client).cutStreamTail(this.input);
  }

  answer(payload: unknown): { status: number; body: string } | null {
    // Masked on a copy first: a withheld answer is judged on the same fields a masked one would change.
    const copy: unknown = this.stop ? structuredClone(payload) : payload;
    if (!maskAnswer(copy, this.matcher, this.found)) return null;
    if (this.stop) return refusedAnswer(this.input, named([...this.found]));
    return { status: 200, body: JSON.stringify(copy) };
  }
}

/** Puts the answer of this response under watch when completions are checked. */
export function guardCompletion(ctx: GatewayContext, input: RelayInput, out: ServerResponse): void {
  if (!COMPLETION_ENDPOINTS.has(input.endpoint)) return;
  const matcher = checks(ctx, 'CheckSensitiveOnCompletionEnabled');
  if (!matcher) return;
  watchCompletion(out, new SensitiveWatch(matcher, input, ctx.options.bool('StopOnSensitiveEnabled')));
}
