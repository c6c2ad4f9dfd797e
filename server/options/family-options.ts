/**
 * Options the family's current console saves from its settings cards, with the checks each value
 * must pass (a value that fails one is refused and nothing is stored). Read by: the thinking
 * adapters (global.thinking_model_blacklist), the check-in (checkin_setting.*), the dashboard's
 * panels and Uptime Kuma status (console_setting.*), the legal pages (legal.*), Discord sign-in
 * (discord.*) and the performance panel (performance_setting.*). io.net deployments are not run
 * here: their two settings are kept so the console's settings page saves and reads them back.
 */
import type { ValueRule } from './values.js';

type OptionCheck = NonNullable<ValueRule['check']>;

interface Def extends ValueRule {
  default: string;
  secret?: true;
}

const parse = (value: string): unknown => {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isWebUrl = (v: unknown) => typeof v === 'string' && /^https?:\/\/[^\s"'<>]+$/i.test(v);

/** A JSON array of strings; empty text is the empty list. */
const stringList: OptionCheck = (v) => {
  const list = v.trim() === '' ? [] : parse(v);
  return Array.isArray(list) && list.every((m) => typeof m === 'string') ? null : 'option.not_string_list';
};
const jsonObject: OptionCheck = (v) => (v.trim() === '' || isObject(parse(v)) ? null : 'option.not_json_object');
/** A JSON array of objects (the dashboard's API list, announcements, FAQ); empty text is none. */
const objectList: OptionCheck = (v) => {
  const list = v.trim() === '' ? [] : parse(v);
  return Array.isArray(list) && list.length <= 100 && list.every(isObject) ? null : 'option.not_object_list';
};
/** [{categoryName, url, slug}]: each status page on a web address (fetched through the safe fetcher). */
const uptimeGroups: OptionCheck = (v) => {
  const list = v.trim() === '' ? [] : parse(v);
  const valid = (g: unknown) =>
    isObject(g) && typeof g.categoryName === 'string' && isWebUrl(g.url) && typeof g.slug === 'string' && /^[\w-]+$/.test(g.slug);
  return Array.isArray(list) && list.length <= 20 && list.every(valid) ? null : 'option.bad_uptime_groups';
};
/**
 * The legal pages are put into the family's console as HTML as they are: markup that runs
 * (scripts, frames, embedded objects, event attributes, script URLs) is refused when saved.
 */
const ACTIVE_HTML =
  /<\s*\/?\s*(script|iframe|frame|frameset|object|embed|applet|link|meta|base|form|svg|math|template)\b|[\s"'/]on[a-z]+\s*=|(java|vb)script\s*:|data\s*:\s*text\/html/i;
const safeHtml: OptionCheck = (v) => (ACTIVE_HTML.test(v) ? 'option.unsafe_html' : null);

const bool = (value: boolean): Def => ({ type: 'bool', default: String(value) });
const text = (value = '', check?: OptionCheck): Def =>
  check ? { type: 'string', default: value, check } : { type: 'string', default: value };
const json = (value: string, check: OptionCheck): Def => ({ type: 'json', default: value, check });

const bounded = (value: number, min: number, max: number): Def => ({ type: 'int', default: String(value), min, max });

export const FAMILY_OPTIONS = {
  'global.thinking_model_blacklist': json('[]', stringList),
  'global.chat_completions_to_responses_policy': json('{}', jsonObject),
  'model_deployment.ionet.enabled': bool(false),
  'model_deployment.ionet.api_key': { type: 'string', default: '', secret: true },
  'performance_setting.disk_cache_enabled': bool(false),
  'performance_setting.disk_cache_threshold_mb': bounded(10, 1, 1_000_000),
  'performance_setting.disk_cache_max_size_mb': bounded(1024, 1, 10_000_000),
  'performance_setting.disk_cache_path': text(),
  'performance_setting.monitor_enabled': bool(false),
  'performance_setting.monitor_cpu_threshold': bounded(90, 1, 100),
  'performance_setting.monitor_memory_threshold': bounded(90, 1, 100),
  'performance_setting.monitor_disk_threshold': bounded(95, 1, 100),
  'checkin_setting.enabled': bool(false),
  'checkin_setting.min_quota': bounded(1000, 0, 1_000_000_000),
  'checkin_setting.max_quota': bounded(10000, 0, 1_000_000_000),
  'console_setting.api_info': text('', objectList),
  'console_setting.announcements': text('', objectList),
  'console_setting.faq': text('', objectList),
  'console_setting.uptime_kuma_groups': text('', uptimeGroups),
  'console_setting.api_info_enabled': bool(true),
  'console_setting.announcements_enabled': bool(true),
  'console_setting.faq_enabled': bool(true),
  'console_setting.uptime_kuma_enabled': bool(true),
  'legal.user_agreement': text('', safeHtml),
  'legal.privacy_policy': text('', safeHtml),
  'discord.enabled': bool(false),
  'discord.client_id': text(),
  'discord.client_secret': { type: 'string', default: '', secret: true },
} satisfies Record<string, Def>;
