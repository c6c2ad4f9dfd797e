/**
 * Telegram's login widget hands the browser the user's fields and a `hash`. It is genuine when
 * hash = hex(HMAC-SHA256(key = SHA-256(bot token), data-check-string)), where the
 * data-check-string is every received field but `hash` as `key=value`, sorted by key, joined with
 * line feeds. `auth_date` (Unix seconds) must be recent, so an old answer cannot be replayed.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { fail } from '../http/errors.js';
import type { Identity } from './providers.js';

/** The fields the console forwards from Telegram's login widget. */
export const TELEGRAM_FIELDS = ['id', 'first_name', 'last_name', 'username', 'photo_url', 'auth_date', 'hash', 'lang'] as const;
export type TelegramData = Partial<Record<(typeof TELEGRAM_FIELDS)[number], string>>;

/** How long a widget answer stays usable, and how far ahead of our clock it may be. */
export const TELEGRAM_MAX_AGE_SECONDS = 24 * 3600;
const CLOCK_SKEW_SECONDS = 300;

export function telegramHash(botToken: string, data: TelegramData): string {
  const checkString = Object.entries(data)
    .filter(([key, value]) => key !== 'hash' && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('\n');
  const secret = createHash('sha256').update(botToken).digest();
  return createHmac('sha256', secret).update(checkString).digest('hex');
}

/** The identity of a genuine, recent widget answer; refuses anything else. */
export function verifyTelegramLogin(botToken: string, data: TelegramData, now = Math.floor(Date.now() / 1000)): Identity {
  const hash = (data.hash ?? '').toLowerCase();
  if (!botToken || !/^[0-9a-f]{64}$/.test(hash) || !data.id || !/^\d{1,20}$/.test(data.id)) throw fail('oauth.telegram_invalid');
  const expected = Buffer.from(telegramHash(botToken, data), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(hash, 'hex'))) throw fail('oauth.telegram_invalid');
  const authDate = Number(data.auth_date);
  if (!Number.isSafeInteger(authDate) || authDate > now + CLOCK_SKEW_SECONDS) throw fail('oauth.telegram_invalid');
  if (now - authDate > TELEGRAM_MAX_AGE_SECONDS) throw fail('oauth.telegram_expired');
  const name = [data.first_name, data.last_name].filter(Boolean).join(' ').trim();
  return { id: data.id, login: data.username?.trim() ?? '', displayName: name, email: '' };
}
