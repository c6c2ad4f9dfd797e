/**
 * The rules of the system and other settings tabs, free of React: which options are write-only
 * secrets, the form a section starts from, what a save sends, and the checks made before saving
 * (trailing slashes, JSON, whitelist domains, well-known URL, numbers). A check returns the i18n key
 * of its message, or null.
 */
import type { OptionKey, OptionValues } from '../useOptions';

/** Options the server never returns (registry `secret`): shown empty, sent only when typed. */
export const SECRET_KEYS: ReadonlySet<string> = new Set<OptionKey>([
  'GitHubClientSecret',
  'oidc.client_secret',
  'LinuxDOClientSecret',
  'WeChatServerToken',
  'TelegramBotToken',
  'TurnstileSecretKey',
  'SMTPToken',
  'WorkerValidKey',
  'EpayKey',
  'StripeApiSecret',
  'StripeWebhookSecret',
  'CreemApiKey',
  'CreemWebhookSecret',
  'discord.client_secret',
  'model_deployment.ionet.api_key',
]);

export const CHECK_INPUT = 'settings_system.common.check_input';
export const INVALID_JSON = 'settings.common.invalid_json';

/** The values a section edits, as loaded; secrets always start empty. */
export function initialForm(values: OptionValues, keys: readonly OptionKey[]): OptionValues {
  return Object.fromEntries(keys.map((key) => [key, SECRET_KEYS.has(key) ? '' : (values[key] ?? '')]));
}

/** What a save sends: everything but secrets left empty (an empty secret keeps the stored one). */
export function savePayload(form: OptionValues): OptionValues {
  return Object.fromEntries(Object.entries(form).filter(([key, value]) => !(SECRET_KEYS.has(key) && value === '')));
}

export function clearSecrets(form: OptionValues): OptionValues {
  return Object.fromEntries(Object.entries(form).map(([key, value]) => [key, SECRET_KEYS.has(key) ? '' : value]));
}

/** Server, worker and pay addresses are kept without trailing slashes. */
export function stripSlashes(address: string): string {
  return address.trim().replace(/\/+$/, '');
}

export const isTrue = (value: string | undefined): boolean => value === 'true';

export function isHttpUrl(value: string): boolean {
  return /^https?:\/\//i.test(value.trim());
}

/** The comma list of the whitelist option as entries. */
export function whitelistEntries(value: string): string[] {
  return value
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
}

const DOMAIN_PATTERN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** A new whitelist entry (already trimmed and lower-cased) must be a domain and not listed yet. */
export function whitelistProblem(entries: readonly string[], entry: string): string | null {
  if (!DOMAIN_PATTERN.test(entry)) return 'settings_system.email.invalid';
  if (entries.some((d) => d.toLowerCase() === entry)) return 'settings_system.email.exists';
  return null;
}

/** A JSON object (not an array, not a scalar). */
export function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

const isNonNegativeNumber = (text: string) => text.trim() !== '' && Number.isFinite(Number(text)) && Number(text) >= 0;
const isIntegerIn = (text: string, min: number, max: number) =>
  /^\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max;

/** Payment: needs the saved server address, a valid group-ratio object, and sane numbers. */
export function checkPayment(form: OptionValues, savedServerAddress: string): string | null {
  if (!savedServerAddress) return 'settings_system.payment.need_server_address';
  if (!isJsonObject(form.TopupGroupRatio ?? '')) return INVALID_JSON;
  if (!isNonNegativeNumber(form.Price ?? '') || !isIntegerIn(form.MinTopUp ?? '', 0, Number.MAX_SAFE_INTEGER)) return CHECK_INPUT;
  return null;
}

export function checkStripe(form: OptionValues, savedServerAddress: string): string | OptionValues {
  if (!savedServerAddress) return 'settings_system.payment.need_server_address';
  if (!isNonNegativeNumber(form.StripeUnitPrice ?? '') || !isIntegerIn(form.StripeMinTopUp ?? '', 1, Number.MAX_SAFE_INTEGER))
    return CHECK_INPUT;
  const currency = (form.StripeCurrency ?? '').trim().toLowerCase();
  return /^[a-z]{3}$/.test(currency) ? { ...form, StripeCurrency: currency } : CHECK_INPUT;
}

export function checkCreem(form: OptionValues, savedServerAddress: string): string | OptionValues {
  if (!savedServerAddress) return 'settings_system.payment.need_server_address';
  const products = (form.CreemProducts ?? '').trim() || '[]';
  try {
    if (!Array.isArray(JSON.parse(products))) return INVALID_JSON;
  } catch {
    return INVALID_JSON;
  }
  return { ...form, CreemProducts: products };
}

export function checkAmountPresets(form: OptionValues): string | OptionValues {
  const options = (form['payment_setting.amount_options'] ?? '').trim() || '[]';
  const discount = (form['payment_setting.amount_discount'] ?? '').trim() || '{}';
  try {
    if (!Array.isArray(JSON.parse(options))) return INVALID_JSON;
  } catch {
    return INVALID_JSON;
  }
  if (!isJsonObject(discount)) return INVALID_JSON;
  return { ...form, 'payment_setting.amount_options': options, 'payment_setting.amount_discount': discount };
}

export function checkSmtp(form: OptionValues): string | null {
  return isIntegerIn(form.SMTPPort ?? '', 1, 65535) ? null : CHECK_INPUT;
}

/** The addresses of `keys` without trailing slashes. */
export function withoutSlashes(form: OptionValues, keys: readonly OptionKey[]): OptionValues {
  const out = { ...form };
  for (const key of keys) if (key in out) out[key] = stripSlashes(out[key] ?? '');
  return out;
}
