/** The rules of vendor and model fields; each refusal throws `fail` before anything is written. */
import { fail } from '../http/errors.js';
import type { RefusalCode } from '../http/refusals.js';

/** A name without its surrounding spaces; empty refused with `code`. */
export function checkName(input: string | undefined, code: RefusalCode): string {
  const name = (input ?? '').trim();
  if (name === '') throw fail(code);
  return name;
}

/** An @lobehub/icons name (`OpenAI`, `Claude.Color`). */
const ICON_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * An icon is a name the console draws, or an http(s) address it shows as an image; nothing else
 * (no `javascript:` or `data:` address can reach an `<img>`). The server never fetches it.
 */
export function checkIcon(input: string | undefined): string {
  const icon = (input ?? '').trim();
  if (icon === '' || ICON_NAME.test(icon)) return icon;
  if (/^https?:\/\/\S+$/i.test(icon) && URL.canParse(icon)) return icon;
  throw fail('catalog.icon_invalid');
}

/**
 * Comma-separated tags (a Chinese comma too), trimmed, without empty or repeated ones: never longer
 * than what came, so within the column whenever the input was.
 */
export function normalizeTags(input: string | undefined): string {
  return [...new Set((input ?? '').split(/[,，]/).map((tag) => tag.trim()))].filter(Boolean).join(',');
}

function isEndpoint(value: unknown): boolean {
  if (typeof value === 'string') return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { path, method } = value as Record<string, unknown>;
  return (path === undefined || typeof path === 'string') && (method === undefined || typeof method === 'string');
}

/**
 * Endpoints as new-api keeps them: a JSON object from endpoint type to a path or `{path, method}`;
 * "" leaves the channels' own endpoints.
 */
export function checkEndpoints(input: string | undefined): string {
  const text = (input ?? '').trim();
  if (text === '') return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw fail('model.endpoints_invalid');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Object.values(parsed).every(isEndpoint)) {
    throw fail('model.endpoints_invalid');
  }
  return text;
}
