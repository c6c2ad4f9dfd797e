/**
 * A channel's `header_override`: a JSON object of extra headers sent with every upstream request of
 * the channel (relayed calls, streams, realtime sessions, token counts, tasks, tests, balance and
 * model-list queries), replacing the provider's own header of the same name (names compare without
 * case). `{api_key}` in a value stands for the channel's key.
 *
 * Refused when saved:
 * - names that are not HTTP tokens, values that are not text or hold line breaks or other control
 *   characters, more than HEADERS_MAX headers or values longer than VALUE_MAX;
 * - hop-by-hop and framing headers (Connection, Transfer-Encoding, Host, Content-Length …): the
 *   connection pool and the body writer own them, and a wrong one desynchronises the connection;
 * - AWS signature headers: the request is signed before the headers are added;
 * - credential headers (Authorization, x-api-key, api-key, x-goog-api-key …) with a literal value:
 *   the key is write-only while this field is shown to every admin, so a credential set here would
 *   leak and would silently replace the channel's key. A template using `{api_key}` (a custom auth
 *   scheme, `Token {api_key}`) is accepted.
 */
import { fail } from '../http/errors.js';

export const HEADERS_MAX = 32;
const NAME_MAX = 128;
const VALUE_MAX = 4096;
const KEY_PLACEHOLDER = '{api_key}';

/** RFC 9110 token characters. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Whether `text` holds a control character other than horizontal tab (CR and LF among them). */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return true;
  }
  return false;
}

const FORBIDDEN = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'content-type',
  'content-encoding',
  'expect',
  'http2-settings',
  'x-amz-date',
  'x-amz-content-sha256',
  'x-amz-security-token',
]);

const CREDENTIALS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'mj-api-secret',
  'cookie',
]);

type Entries = ReadonlyArray<readonly [name: string, value: string]>;

/**
 * Checks the text an admin saves; returns it trimmed, or null when blank. Refuses with
 * `channel.header_override_invalid` naming the header (or the reason) in `detail`.
 */
export function checkHeaderOverride(value: string | null | undefined): string | null {
  if (value === undefined || value === null || value.trim() === '') return null;
  const refuse = (detail: string) => fail('channel.header_override_invalid', { detail });
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw refuse('JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw refuse('JSON');
  const entries = Object.entries(parsed);
  if (entries.length > HEADERS_MAX) throw refuse(`> ${HEADERS_MAX}`);
  for (const [name, v] of entries) {
    if (!TOKEN.test(name) || name.length > NAME_MAX) throw refuse(name);
    if (typeof v !== 'string' || v.length > VALUE_MAX || hasControl(v)) throw refuse(name);
    const lower = name.toLowerCase();
    if (FORBIDDEN.has(lower)) throw refuse(name);
    if (CREDENTIALS.has(lower) && !v.includes(KEY_PLACEHOLDER)) throw refuse(name);
  }
  return value.trim();
}

/** Parsed overrides by their text: a handful of channels, parsed once each. */
const parsedByText = new Map<string, Entries>();
const PARSED_MAX = 1000;

function entriesOf(text: string): Entries {
  let entries = parsedByText.get(text);
  if (entries) return entries;
  try {
    const parsed: unknown = JSON.parse(text);
    entries =
      typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
        ? Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string')
        : [];
  } catch {
    // Written outside the console and unreadable: nothing is added rather than the call failing.
    entries = [];
  }
  if (parsedByText.size >= PARSED_MAX) parsedByText.clear();
  parsedByText.set(text, entries);
  return entries;
}

/** The channel's fields the override reads. */
export type HeaderChannel = { header_override: string | null; key: string };

/** `headers` with the channel's overrides applied (the same object when it has none). */
export function withHeaderOverride(headers: Record<string, string>, channel: HeaderChannel): Record<string, string> {
  if (!channel.header_override) return headers;
  const entries = entriesOf(channel.header_override);
  if (entries.length === 0) return headers;
  const out: Record<string, string> = {};
  const overridden = new Set(entries.map(([name]) => name.toLowerCase()));
  for (const [name, value] of Object.entries(headers)) if (!overridden.has(name.toLowerCase())) out[name] = value;
  for (const [name, value] of entries) out[name] = value.replaceAll(KEY_PLACEHOLDER, channel.key);
  return out;
}
