/**
 * A user's notification and price preferences (users.setting, a JSON string): reading it with
 * defaults, the view the console gets (no webhook secret) and the checks of PUT /api/user/setting.
 * The quota-warning sender and the relay read the same field names.
 */
import { fail } from '../http/errors.js';
import { SafeFetchError, vetUrl } from '../http/safe-fetch.js';
import type { UserSetting, UserSettingBody, UserSettingView } from './schemas.js';

/** The warning threshold of a user who never set one: 1 USD at the default rate. */
export const DEFAULT_QUOTA_WARNING_THRESHOLD = 500_000;

const DEFAULTS: UserSetting = {
  notify_type: 'email',
  quota_warning_threshold: DEFAULT_QUOTA_WARNING_THRESHOLD,
  webhook_url: '',
  webhook_secret: '',
  notification_email: '',
  accept_unset_model_ratio_model: false,
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** users.setting as a complete object; a missing or damaged value yields the defaults. */
export function parseUserSetting(raw: string | null): UserSetting {
  let parsed: unknown = null;
  try {
    parsed = raw ? JSON.parse(raw) : null;
  } catch {
    parsed = null;
  }
  if (!isRecord(parsed)) return { ...DEFAULTS };
  const text = (key: keyof UserSetting): string => (typeof parsed[key] === 'string' ? parsed[key] : '');
  const threshold = parsed.quota_warning_threshold;
  return {
    notify_type: parsed.notify_type === 'webhook' ? 'webhook' : 'email',
    quota_warning_threshold:
      typeof threshold === 'number' && Number.isFinite(threshold) && threshold > 0 ? threshold : DEFAULT_QUOTA_WARNING_THRESHOLD,
    webhook_url: text('webhook_url'),
    webhook_secret: text('webhook_secret'),
    notification_email: text('notification_email'),
    accept_unset_model_ratio_model: parsed.accept_unset_model_ratio_model === true,
  };
}

export function settingView(setting: UserSetting): UserSettingView {
  const { webhook_secret, ...rest } = setting;
  return { ...rest, webhook_secret_set: webhook_secret !== '' };
}

/** users.setting as the console may see it: the stored JSON without the webhook secret. */
export function publicSettingString(raw: string | null): string | null {
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!isRecord(parsed)) return raw;
    const { webhook_secret: _secret, ...rest } = parsed;
    return JSON.stringify(rest);
  } catch {
    return null;
  }
}

/** Largest threshold kept: quota is an integer and must stay exact in JSON. */
const MAX_THRESHOLD = Number.MAX_SAFE_INTEGER;

/** An https URL with a host and no embedded credentials (the secret has its own field). */
function isHttpsUrl(text: string): boolean {
  if (!text.startsWith('https://') || !URL.canParse(text)) return false;
  const url = new URL(text);
  return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
}

/** Validates a PUT /api/user/setting body against the current setting; throws `fail` on bad input. */
export function applySettingBody(current: UserSetting, body: UserSettingBody): UserSetting {
  const threshold = body.quota_warning_threshold;
  if (!Number.isFinite(threshold) || threshold <= 0) throw fail('user.threshold_not_positive');
  if (threshold > MAX_THRESHOLD) throw fail('user.threshold_too_large');
  const webhookUrl = (body.webhook_url ?? current.webhook_url).trim();
  if (body.notify_type === 'webhook' && !webhookUrl) throw fail('user.webhook_required');
  // Checked whenever one is given, so a later switch to webhook never finds a bad stored URL.
  if (webhookUrl && !isHttpsUrl(webhookUrl)) throw fail('user.webhook_not_https');
  const email = (body.notification_email ?? current.notification_email).trim();
  if (email && !EMAIL.test(email)) throw fail('user.notification_email_invalid');
  return {
    notify_type: body.notify_type,
    quota_warning_threshold: Math.ceil(threshold),
    webhook_url: webhookUrl,
    webhook_secret: body.webhook_secret ?? current.webhook_secret,
    notification_email: email,
    accept_unset_model_ratio_model: body.accept_unset_model_ratio_model ?? current.accept_unset_model_ratio_model,
  };
}

/**
 * A webhook address is saved only when the quota-warning sender would post to it: the SSRF-safe
 * fetcher's own address check runs now (private and loopback hosts stay refused unless the
 * operator names them in ALLOW_PRIVATE_HOSTS). A name that does not resolve today is kept: the
 * check runs again at every send.
 */
export async function checkWebhookTarget(url: string): Promise<void> {
  try {
    await vetUrl(url);
  } catch (err) {
    if (err instanceof SafeFetchError && err.code !== 'resolve') throw fail('user.webhook_blocked', { detail: err.message });
    if (!(err instanceof SafeFetchError)) throw err;
  }
}
