/** The operation tab's cards as field lists (option keys from server/options/registry.ts). */
import { chatList, jsonArray, jsonObject, numberMap, stringMap, type FieldSpec } from './optionFields';

export const GENERAL_FIELDS: readonly FieldSpec[] = [
  { key: 'TopUpLink', kind: 'text', hint: true },
  { key: 'general_setting.docs_link', kind: 'text', hint: true },
  { key: 'ChatLink', kind: 'text', hint: true },
  { key: 'QuotaPerUnit', kind: 'float', min: 1, hint: true },
  { key: 'RetryTimes', kind: 'int', min: 0 },
  { key: 'Chats', kind: 'json', check: chatList, hint: true },
  { key: 'DisplayInCurrencyEnabled', kind: 'switch' },
  { key: 'DisplayTokenStatEnabled', kind: 'switch', hint: true },
  { key: 'DefaultCollapseSidebar', kind: 'switch' },
  { key: 'DemoSiteEnabled', kind: 'switch' },
  { key: 'SelfUseModeEnabled', kind: 'switch', hint: true },
];

export const DRAWING_FIELDS: readonly FieldSpec[] = [
  { key: 'DrawingEnabled', kind: 'switch' },
  { key: 'MjNotifyEnabled', kind: 'switch', hint: true },
  { key: 'MjAccountFilterEnabled', kind: 'switch' },
  { key: 'MjForwardUrlEnabled', kind: 'switch', hint: true },
  { key: 'MjModeClearEnabled', kind: 'switch', hint: true },
  { key: 'MjActionCheckSuccessEnabled', kind: 'switch', hint: true },
];

export const SENSITIVE_FIELDS: readonly FieldSpec[] = [
  { key: 'SensitiveWords', kind: 'text', lines: 4, hint: true },
  { key: 'CheckSensitiveEnabled', kind: 'switch' },
  { key: 'CheckSensitiveOnPromptEnabled', kind: 'switch' },
  { key: 'CheckSensitiveOnCompletionEnabled', kind: 'switch' },
  { key: 'StopOnSensitiveEnabled', kind: 'switch' },
];

export const LOG_FIELDS: readonly FieldSpec[] = [
  { key: 'LogConsumeEnabled', kind: 'switch' },
  { key: 'LogRetentionDays', kind: 'int', min: 0, hint: true },
  { key: 'BodyLogEnabled', kind: 'switch', hint: true },
  { key: 'BodyLogGroups', kind: 'text', hint: true },
  { key: 'BodyLogMaxBytes', kind: 'int', min: 1024, hint: true },
  { key: 'BodyLogRetentionDays', kind: 'int', min: 0, hint: true },
];

export const DATA_EXPORT_TIMES = ['hour', 'day', 'week'] as const;

export const DASHBOARD_FIELDS: readonly FieldSpec[] = [
  { key: 'DataExportInterval', kind: 'int', min: 1, hint: true },
  { key: 'DataExportDefaultTime', kind: 'select', choices: DATA_EXPORT_TIMES },
  { key: 'DataExportEnabled', kind: 'switch' },
];

export const MONITORING_FIELDS: readonly FieldSpec[] = [
  { key: 'ChannelDisableThreshold', kind: 'float', min: 0, hint: true },
  { key: 'QuotaRemindThreshold', kind: 'int', min: 0, hint: true },
  { key: 'AutomaticDisableKeywords', kind: 'text', lines: 4, hint: true },
  { key: 'AutomaticDisableChannelEnabled', kind: 'switch' },
  { key: 'AutomaticEnableChannelEnabled', kind: 'switch' },
  { key: 'channel_health.enabled', kind: 'switch', hint: true },
  { key: 'channel_health.window_seconds', kind: 'int', min: 1, hint: true },
  { key: 'channel_health.min_requests', kind: 'int', min: 1, hint: true },
  { key: 'channel_health.error_rate', kind: 'float', min: 0, hint: true },
  { key: 'channel_health.consecutive_failures', kind: 'int', min: 0, hint: true },
  { key: 'channel_health.cooldown_seconds', kind: 'int', min: 1, hint: true },
  { key: 'channel_health.cooldown_max_seconds', kind: 'int', min: 1, hint: true },
  { key: 'channel_health.latency_routing_enabled', kind: 'switch', hint: true },
];

/** Routing across models and channels: fallback chains and channel affinity. */
export const ROUTING_FIELDS: readonly FieldSpec[] = [
  { key: 'relay.model_fallbacks', kind: 'json', check: jsonObject, hint: true },
  { key: 'channel_affinity_setting.enabled', kind: 'switch', hint: true },
  { key: 'channel_affinity_setting.switch_on_success', kind: 'switch', hint: true },
  { key: 'channel_affinity_setting.default_ttl_seconds', kind: 'int', min: 1, hint: true },
  { key: 'channel_affinity_setting.max_entries', kind: 'int', min: 1, hint: true },
  { key: 'channel_affinity_setting.rules', kind: 'json', check: jsonArray, hint: true },
];

export const QUOTA_FIELDS: readonly FieldSpec[] = [
  { key: 'QuotaForNewUser', kind: 'int', min: 0 },
  { key: 'PreConsumedQuota', kind: 'int', min: 0, hint: true },
  { key: 'DefaultModelRatio', kind: 'float', min: 0, hint: true },
  { key: 'QuotaForInviter', kind: 'int', min: 0 },
  { key: 'QuotaForInvitee', kind: 'int', min: 0 },
];

/** The `model` sub-tab: the price and group maps as JSON. */
export const RATIO_FIELDS: readonly FieldSpec[] = [
  { key: 'ModelPrice', kind: 'json', check: numberMap, hint: true },
  { key: 'ModelRatio', kind: 'json', check: numberMap, hint: true },
  { key: 'CacheRatio', kind: 'json', check: numberMap, hint: true },
  { key: 'CompletionRatio', kind: 'json', check: numberMap, hint: true },
  { key: 'GroupRatio', kind: 'json', check: numberMap, hint: true },
  { key: 'UserUsableGroups', kind: 'json', check: stringMap, hint: true },
];
