/**
 * Chat links: an admin configures chat clients as URL templates, in the status as
 * `chats: [{ "<name>": "<template>" }, …]` and `chat_link`. `{key}` in a template becomes the
 * person's full key (`sk-…`) and `{address}` the gateway's address.
 */
import type { SiteStatus } from '../../status/status';

/** Each problem is shown as `resources.token.chat.<problem>`. */
export type ChatLinkProblem = 'parse_failed' | 'bad_config' | 'not_configured' | 'no_enabled_token';

export class ChatLinkError extends Error {
  constructor(readonly problem: ChatLinkProblem) {
    super(`resources.token.chat.${problem}`);
  }
}

export interface ChatEntry {
  name: string;
  /** Null when the entry is not a `{name: template}` object with a non-empty template. */
  template: string | null;
}

function entryOf(raw: unknown): ChatEntry {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { name: '', template: null };
  const first = Object.entries(raw)[0];
  if (!first) return { name: '', template: null };
  const [name, template] = first;
  return { name, template: typeof template === 'string' && template.trim() ? template.trim() : null };
}

/** The configured chats; `raw` is the status value or its JSON text (the local copy). */
export function parseChats(raw: unknown): ChatEntry[] {
  if (raw === undefined || raw === null || raw === '') return [];
  let value: unknown = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw new ChatLinkError('parse_failed');
    }
  }
  if (!Array.isArray(value)) throw new ChatLinkError('parse_failed');
  return value.map(entryOf);
}

/** The template of `/chat/{index}`. */
export function chatTemplateAt(chats: unknown, index: number): string {
  const entries = parseChats(chats);
  if (entries.length === 0) throw new ChatLinkError('not_configured');
  const entry = Number.isInteger(index) && index >= 0 ? entries[index] : undefined;
  if (!entry?.template) throw new ChatLinkError('bad_config');
  return entry.template;
}

type ChatStatus = Pick<SiteStatus, 'chats' | 'chat_link'>;

/** The template of `/chat2link`: `chat_link`, else the first configured chat. */
export function chatLinkTemplate(status: ChatStatus): string {
  const link = status.chat_link.trim();
  return link || chatTemplateAt(status.chats, 0);
}

/** What a token row offers: every configured chat, or `chat_link` alone when there is no list. */
export function chatChoices(status: ChatStatus): ChatEntry[] {
  const entries = parseChats(status.chats);
  if (entries.length > 0) return entries;
  const link = status.chat_link.trim();
  return link ? [{ name: '', template: link }] : [];
}

/** The gateway's address for `{address}`: the configured server address, else this page's origin. */
export function serverAddress(status: Pick<SiteStatus, 'server_address'>, origin = window.location.origin): string {
  return (status.server_address.trim() || origin).replace(/\/+$/, '');
}

/** Schemes a link must never run as: they would execute in the console's page. */
const UNSAFE_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:']);

/** The link of `template` for `key` at `address`; a template that makes no valid link is a config error. */
export function buildChatLink(template: string, key: string, address: string): string {
  const link = template.replaceAll('{key}', key).replaceAll('{address}', address).trim();
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new ChatLinkError('bad_config');
  }
  if (UNSAFE_SCHEMES.has(url.protocol)) throw new ChatLinkError('bad_config');
  return link;
}
