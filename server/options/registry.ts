/**
 * Every option the console can read or write, with its type, default and the rule its values
 * follow (server/options/values.ts: range, choices, JSON shape). Values are stored as strings; the
 * rule drives validation on PUT /api/option/ and `type` the parsing in `OptionStore.get`.
 * Secrets are write-only: GET /api/option/ never returns their values.
 */
import { affinityRulesError, DEFAULT_AFFINITY_RULES } from '../relay/routing/affinity-rules.js';
import { fallbacksValueError } from '../relay/routing/fallback-rules.js';
import { FAMILY_OPTIONS } from './family-options.js';
import { capabilityOverridesError } from '../relay/wire/model-capabilities.js';
import { checkOptionValue, type JsonShape, type Refusal, type ValueRule } from './values.js';
import { DEFAULT_CACHE_RATIO, DEFAULT_COMPLETION_RATIO, DEFAULT_MODEL_PRICE, DEFAULT_MODEL_RATIO } from './default-prices.js';

export type OptionType = ValueRule['type'];

export interface OptionDef extends ValueRule {
  default: string;
  secret?: true;
}

/** A number's bounds; either may be left open. */
type Range = { min?: number; max?: number };

const bool = (value: boolean): OptionDef => ({ type: 'bool', default: String(value) });
const int = (value: number, range: Range = {}): OptionDef => ({ type: 'int', default: String(value), ...range });
const float = (value: number, range: Range = {}): OptionDef => ({ type: 'float', default: String(value), ...range });
const str = (value = ''): OptionDef => ({ type: 'string', default: value });
const oneOf = (value: string, choices: readonly string[]): OptionDef => ({ type: 'string', default: value, choices });
const secret = (): OptionDef => ({ type: 'string', default: '', secret: true });
const json = (value: unknown, shape: JsonShape): OptionDef => ({ type: 'json', default: JSON.stringify(value), shape });

const COUNT: Range = { min: 0 };
const SHARE: Range = { min: 0, max: 1 };
const DAY_SECONDS = 86_400;

export const DEFAULT_AUTO_DISABLE_KEYWORDS = [
  'Your credit balance is too low',
  'This organization has been disabled.',
  'You exceeded your current quota',
  'Permission denied',
  'The security token included in the request is invalid',
  'Operation not allowed',
  'Your account is not authorized',
].join('\n');

export const OPTION_REGISTRY = {
  // Login and registration
  PasswordLoginEnabled: bool(true),
  PasswordRegisterEnabled: bool(true),
  EmailVerificationEnabled: bool(false),
  RegisterEnabled: bool(true),
  GitHubOAuthEnabled: bool(false),
  GitHubClientId: str(),
  GitHubClientSecret: secret(),
  'oidc.enabled': bool(false),
  'oidc.client_id': str(),
  'oidc.client_secret': secret(),
  'oidc.well_known': str(),
  'oidc.authorization_endpoint': str(),
  'oidc.token_endpoint': str(),
  'oidc.user_info_endpoint': str(),
  LinuxDOOAuthEnabled: bool(false),
  LinuxDOClientId: str(),
  LinuxDOClientSecret: secret(),
  WeChatAuthEnabled: bool(false),
  WeChatServerAddress: str(),
  WeChatServerToken: secret(),
  WeChatAccountQRCodeImageURL: str(),
  TelegramOAuthEnabled: bool(false),
  TelegramBotToken: secret(),
  TelegramBotName: str(),
  /**
   * Passkeys (WebAuthn). The relying party's origins and id come from `passkey.origins` and
   * `passkey.rp_id` when set, else from ServerAddress, else from the address a request reached
   * (server/mfa/relying-party.ts).
   */
  'passkey.enabled': bool(true),
  'passkey.rp_display_name': str(),
  'passkey.rp_id': str(),
  'passkey.origins': str(),
  'passkey.allow_insecure_origin': bool(false),
  /** required | preferred | discouraged */
  'passkey.user_verification': oneOf('preferred', ['required', 'preferred', 'discouraged']),
  /** platform | cross-platform | empty (either) */
  'passkey.attachment_preference': oneOf('', ['', 'platform', 'cross-platform']),
  TurnstileCheckEnabled: bool(false),
  TurnstileSiteKey: str(),
  TurnstileSecretKey: secret(),
  // E-mail
  EmailDomainRestrictionEnabled: bool(false),
  EmailAliasRestrictionEnabled: bool(false),
  EmailDomainWhitelist: str(
    ['gmail.com', '163.com', '126.com', 'qq.com', 'outlook.com', 'hotmail.com', 'icloud.com', 'yahoo.com', 'foxmail.com'].join(
      ',',
    ),
  ),
  SMTPServer: str(),
  SMTPPort: int(587, { min: 1, max: 65_535 }),
  SMTPAccount: str(),
  SMTPFrom: str(),
  SMTPToken: secret(),
  SMTPSSLEnabled: bool(false),
  // Server and payment
  ServerAddress: str(),
  WorkerUrl: str(),
  WorkerValidKey: secret(),
  WorkerAllowHttpImageRequestEnabled: bool(false),
  PayAddress: str(),
  EpayId: str(),
  EpayKey: secret(),
  Price: float(7.3, COUNT),
  MinTopUp: int(1, { min: 1 }),
  TopupGroupRatio: json({ default: 1, vip: 1, svip: 1 }, 'number_map'),
  CustomCallbackAddress: str(),
  TopUpLink: str(),
  // Personalisation
  Notice: str(),
  SystemName: str('AI Gateway'),
  Logo: str('/logo.png'),
  HomePageContent: str(),
  About: str(),
  Footer: str(),
  'general_setting.docs_link': str(),
  /** The floating customer-service button's target (empty: no button). */
  SupportLink: str(),
  /** Release feed of the update check (GitHub's latest-release JSON or a list of releases); empty = no check. */
  UpdateCheckUrl: str(),
  Chats: json([], 'chat_list'),
  ChatLink: str(),
  // Display and modes
  QuotaPerUnit: float(500000, { min: 1, max: 1e12 }),
  RetryTimes: int(0, { min: 0, max: 100 }),
  DisplayInCurrencyEnabled: bool(true),
  DisplayTokenStatEnabled: bool(true),
  DefaultCollapseSidebar: bool(false),
  DemoSiteEnabled: bool(false),
  SelfUseModeEnabled: bool(false),
  // Drawing and tasks
  DrawingEnabled: bool(false),
  TaskEnabled: bool(false),
  MjNotifyEnabled: bool(false),
  MjAccountFilterEnabled: bool(false),
  MjForwardUrlEnabled: bool(false),
  MjModeClearEnabled: bool(false),
  MjActionCheckSuccessEnabled: bool(true),
  // Sensitive words
  CheckSensitiveEnabled: bool(false),
  CheckSensitiveOnPromptEnabled: bool(true),
  CheckSensitiveOnCompletionEnabled: bool(false),
  StopOnSensitiveEnabled: bool(true),
  SensitiveWords: str(),
  // Logs and data
  LogConsumeEnabled: bool(true),
  /** Log rows older than this many days are deleted by the jobs leader (server/logs/retention.ts); 0 keeps them. */
  LogRetentionDays: int(0, { min: 0, max: 36_500 }),
  /**
   * Body logs (server/observability/body-log.ts): the bodies of every call, of the calls of these
   * groups (comma-separated), and of tokens whose owner opted in, each capped, kept this many days.
   */
  BodyLogEnabled: bool(false),
  BodyLogGroups: str(),
  BodyLogMaxBytes: int(65_536, { min: 1024, max: 1_048_576 }),
  BodyLogRetentionDays: int(7, { min: 0, max: 36_500 }),
  DataExportEnabled: bool(true),
  DataExportInterval: int(5, { min: 0, max: 1440 }),
  DataExportDefaultTime: oneOf('hour', ['hour', 'day', 'week']),
  // Channel automation
  ChannelDisableThreshold: float(5, COUNT),
  AutomaticDisableChannelEnabled: bool(false),
  AutomaticEnableChannelEnabled: bool(false),
  AutomaticDisableKeywords: str(DEFAULT_AUTO_DISABLE_KEYWORDS),
  // Channel health (server/channels/health/): cool-downs on errors, latency-aware weights
  'channel_health.enabled': bool(true),
  'channel_health.window_seconds': int(60, { min: 1, max: DAY_SECONDS }),
  'channel_health.min_requests': int(10, { min: 1, max: 1_000_000 }),
  'channel_health.error_rate': float(0.5, SHARE),
  'channel_health.consecutive_failures': int(5, { min: 0, max: 1_000_000 }),
  'channel_health.cooldown_seconds': int(30, { min: 1, max: DAY_SECONDS }),
  'channel_health.cooldown_max_seconds': int(600, { min: 1, max: 7 * DAY_SECONDS }),
  'channel_health.latency_routing_enabled': bool(false),
  // Quotas
  QuotaRemindThreshold: int(1000, COUNT),
  QuotaForNewUser: int(0, COUNT),
  PreConsumedQuota: int(500, COUNT),
  /** The model ratio of models without a price or ratio, where unset prices are accepted. */
  DefaultModelRatio: float(30, COUNT),
  QuotaForInviter: int(0, COUNT),
  QuotaForInvitee: int(0, COUNT),
  StreamCacheQueueLength: int(0, COUNT),
  // Pricing
  ModelPrice: json(DEFAULT_MODEL_PRICE, 'number_map'),
  ModelRatio: json(DEFAULT_MODEL_RATIO, 'number_map'),
  CompletionRatio: json(DEFAULT_COMPLETION_RATIO, 'number_map'),
  CacheRatio: json(DEFAULT_CACHE_RATIO, 'number_map'),
  /** Serve the four price maps above at the public GET /api/ratio_config, for other gateways' ratio sync. */
  ExposeRatioEnabled: bool(false),
  GroupRatio: json({ default: 1, vip: 1, svip: 1 }, 'number_map'),
  UserUsableGroups: json({ default: '默认分组', vip: 'vip分组' }, 'string_map'),
  // Rate limit
  ModelRequestRateLimitEnabled: bool(false),
  ModelRequestRateLimitCount: int(0, COUNT),
  ModelRequestRateLimitSuccessCount: int(1000, COUNT),
  ModelRequestRateLimitDurationMinutes: int(1, { min: 0, max: 10_080 }),
  ModelRequestRateLimitGroup: json({}, 'count_pair_map'),
  /** Tokens billed per user in the sliding minute (0 = no limit), under ModelRequestRateLimitEnabled. */
  ModelRequestRateLimitTPM: int(0, COUNT),
  /** Per group: `{"vip": 200000}` overrides ModelRequestRateLimitTPM (0 lifts it for the group). */
  ModelRequestRateLimitTPMGroup: json({}, 'count_map'),
  // Provider-specific model settings
  'gemini.safety_settings': json({}, 'string_map'),
  'gemini.version_settings': json({}, 'string_map'),
  'gemini.supported_imagine_models': json(['gemini-2.0-flash-exp-image-generation'], 'string_list'),
  'gemini.thinking_adapter_enabled': bool(false),
  'gemini.thinking_adapter_budget_tokens_percentage': float(0.6, SHARE),
  'claude.model_headers_settings': json({}, 'header_map'),
  'claude.default_max_tokens': json({ default: 8192 }, 'positive_int_map'),
  'claude.thinking_adapter_enabled': bool(true),
  'claude.thinking_adapter_budget_tokens_percentage': float(0.8, SHARE),
  'global.pass_through_request_enabled': bool(false),
  /** Model prefix → capabilities (server/relay/wire/model-capabilities.ts), over the built-in table. */
  'relay.model_capabilities': {
    type: 'json',
    default: '{}',
    check: (v) => (capabilityOverridesError(v) === null ? null : 'option.bad_model_capabilities'),
  },
  /** Model → the models tried when it cannot be served (server/relay/routing/fallbacks.ts). */
  'relay.model_fallbacks': {
    type: 'json',
    default: '{}',
    check: (v) => (fallbacksValueError(v) ? 'option.bad_model_fallbacks' : null),
  },
  // Channel affinity (server/relay/routing/affinity.ts), in the family's names.
  'channel_affinity_setting.enabled': bool(false),
  'channel_affinity_setting.switch_on_success': bool(true),
  'channel_affinity_setting.max_entries': int(100_000, { min: 1, max: 10_000_000 }),
  'channel_affinity_setting.default_ttl_seconds': int(3600, { min: 1, max: 30 * DAY_SECONDS }),
  'channel_affinity_setting.rules': {
    type: 'json',
    default: JSON.stringify(DEFAULT_AFFINITY_RULES),
    check: (v) => (affinityRulesError(v) ? 'option.bad_affinity_rules' : null),
  },
  /** Fit same-format chat and Claude requests to the upstream model too (converted ones always are). */
  'relay.fit_native_requests': bool(false),
  'general_setting.ping_interval_enabled': bool(false),
  'general_setting.ping_interval_seconds': int(60, { min: 1, max: 3600 }),
  ...FAMILY_OPTIONS,
} satisfies Record<string, OptionDef>;

export type OptionKey = keyof typeof OPTION_REGISTRY;

export function isOptionKey(key: string): key is OptionKey {
  return Object.hasOwn(OPTION_REGISTRY, key);
}

/** Why `value` is no value of option `key` (its type, range, choices or shape); null when it is one. */
export function validateOptionValue(key: OptionKey, value: string): Refusal | null {
  return checkOptionValue(OPTION_REGISTRY[key], value);
}
