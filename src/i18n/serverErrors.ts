/**
 * A refusal of the server in the reader's language. Every refusal carries a stable code and the
 * values its message was filled from (server/http/refusals.ts); the console's text for it is
 * `server_errors.<code>` in src/i18n/zh and en, with `%{name}` filled from those values. A refusal
 * without a known code, or without a value its translation needs (the relay's OpenAI-format errors
 * carry a code but no values), is shown as the server worded it.
 */
import type { Locale } from './index';
import { server_errors as zh } from './zh/server_errors';
import { server_errors as en } from './en/server_errors';

export interface Refusal {
  message?: string;
  code?: string;
  params?: Record<string, string | number>;
}

const TABLES: Record<Locale, object> = { zh, en };
const HAN = /[\u3400-\u9fff]/;
const LETTER = /[A-Za-z]/;

/** The translation of `code` in `locale`, or undefined when the console does not know it. */
export function serverErrorTemplate(code: string, locale: Locale): string | undefined {
  let node: unknown = TABLES[locale];
  for (const part of code.split('.')) {
    if (node && typeof node === 'object' && Object.hasOwn(node, part)) node = (node as Record<string, unknown>)[part];
    else return undefined;
  }
  return typeof node === 'string' ? node : undefined;
}

/** `%{name}` filled from params; null when one is missing. A Latin value next to Chinese text is spaced off, as the server does. */
function fill(template: string, params: Refusal['params'] = {}): string | null {
  let missing = false;
  const text = template.replace(/%\{(\w+)\}/g, (all, name: string, at: number) => {
    const raw = params[name];
    if (raw === undefined) {
      missing = true;
      return all;
    }
    const value = String(raw);
    const before = HAN.test(template[at - 1] ?? '') && LETTER.test(value[0] ?? '') ? ' ' : '';
    const after = HAN.test(template[at + all.length] ?? '') && LETTER.test(value.at(-1) ?? '') ? ' ' : '';
    return before + value + after;
  });
  return missing ? null : text;
}

/** The text to show for a refusal; `fallback` (an i18n key) when it has neither a known code nor a message. */
export function localizeRefusal(refusal: Refusal, locale: Locale, fallback = 'app.error.request_failed'): string {
  const template = refusal.code ? serverErrorTemplate(refusal.code, locale) : undefined;
  const text = template === undefined ? null : fill(template, refusal.params);
  return text ?? (refusal.message || fallback);
}
