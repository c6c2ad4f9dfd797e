/** The notification and price settings form: initial values, client checks and the PUT body. */
import type { UserSettingBody, UserSettingView } from '../../../server/users/schemas';

export const THRESHOLD_PRESETS = [100_000, 500_000, 1_000_000, 5_000_000];
/** The form's starting threshold when the user never saved one: the server's default warning level. */
export const THRESHOLD_INITIAL = 100_000;

export interface SettingsForm {
  notify_type: UserSettingView['notify_type'];
  quota_warning_threshold: string;
  webhook_url: string;
  /** Blank keeps the stored secret (the server never sends it back). */
  webhook_secret: string;
  notification_email: string;
  accept_unset_model_ratio_model: boolean;
}

export function initialSettings(view: UserSettingView | undefined, hasSetting: boolean): SettingsForm {
  return {
    notify_type: view?.notify_type ?? 'email',
    quota_warning_threshold: String(hasSetting && view ? view.quota_warning_threshold : THRESHOLD_INITIAL),
    webhook_url: view?.webhook_url ?? '',
    webhook_secret: '',
    notification_email: view?.notification_email ?? '',
    accept_unset_model_ratio_model: view?.accept_unset_model_ratio_model ?? false,
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The server's rule too: an https URL with a host and no user:password part. */
function isHttpsUrl(text: string): boolean {
  if (!text.startsWith('https://') || !URL.canParse(text)) return false;
  const url = new URL(text);
  return url.hostname !== '' && url.username === '' && url.password === '';
}

/** The first problem of the form as a message key, or null. */
export function validateSettings(form: SettingsForm): string | null {
  const threshold = Number(form.quota_warning_threshold);
  if (!form.quota_warning_threshold.trim() || !Number.isFinite(threshold) || threshold <= 0) {
    return 'pages.personal.settings.threshold_invalid';
  }
  const url = form.webhook_url.trim();
  if (form.notify_type === 'webhook' && !url) return 'pages.personal.settings.webhook_required';
  if (url && !isHttpsUrl(url)) return 'pages.personal.settings.webhook_https';
  const email = form.notification_email.trim();
  if (email && !EMAIL.test(email)) return 'pages.personal.settings.email_invalid';
  return null;
}

export function settingsBody(form: SettingsForm): UserSettingBody {
  const body: UserSettingBody = {
    notify_type: form.notify_type,
    quota_warning_threshold: Math.ceil(Number(form.quota_warning_threshold)),
    webhook_url: form.webhook_url.trim(),
    notification_email: form.notification_email.trim(),
    accept_unset_model_ratio_model: form.accept_unset_model_ratio_model,
  };
  if (form.webhook_secret) body.webhook_secret = form.webhook_secret;
  return body;
}
