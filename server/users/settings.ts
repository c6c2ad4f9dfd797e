import { fail } from '../http/errors.js';
import type { UserSetting, UserSettingBody, UserSettingView } from './schemas.js';

/** The spec's fallback when a user never set a warning threshold (1 USD at the default rate). */
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

/** Validates a PUT /api/user/setting body against the current setting; throws `fail` on bad input. */
export function applySettingBody(current: UserSetting, body: UserSettingBody): UserSetting {
  const threshold = body.quota_warning_threshold;
  if (!Number.isFinite(threshold) || threshold <= 0) throw fail('额度预警阈值必须大于0');
  const webhookUrl = (body.webhook_url ?? current.webhook_url).trim();
  if (body.notify_type === 'webhook') {
    if (!webhookUrl) throw fail('Webhook地址不能为空');
    if (!webhookUrl.startsWith('https://') || !URL.canParse(webhookUrl)) throw fail('Webhook地址必须以https开头');
  }
  const email = (body.notification_email ?? current.notification_email).trim();
  if (email && !EMAIL.test(email)) throw fail('通知邮箱地址无效');
  return {
    notify_type: body.notify_type,
    quota_warning_threshold: Math.ceil(threshold),
    webhook_url: webhookUrl,
    webhook_secret: body.webhook_secret ?? current.webhook_secret,
    notification_email: email,
    accept_unset_model_ratio_model: body.accept_unset_model_ratio_model ?? current.accept_unset_model_ratio_model,
  };
}
