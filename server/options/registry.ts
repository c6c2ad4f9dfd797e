/**
 * Every option the console can read or write, with its type and default. Values are stored as
 * strings; `type` drives validation on PUT /api/option/ and parsing in `OptionStore.get`.
 * Secrets are write-only: GET /api/option/ never returns their values.
 */
import type { RefusalCode } from '../http/refusals.js';
import { FAMILY_OPTIONS, type OptionCheck } from './family-options.js';
import { DEFAULT_CACHE_RATIO, DEFAULT_COMPLETION_RATIO, DEFAULT_MODEL_PRICE, DEFAULT_MODEL_RATIO } from './default-prices.js';

export type OptionType = 'bool' | 'int' | 'float' | 'string' | 'json';

export interface OptionDef {
  type: OptionType;
  default: string;
  secret?: true;
  /** A further check of the value's form (after its type's). */
  check?: OptionCheck;
  /** Least and greatest value of a number option. */
  bounds?: readonly [number, number];
}

const bool = (value: boolean): OptionDef => ({ type: 'bool', default: String(value) });
const int = (value: number): OptionDef => ({ type: 'int', default: String(value) });
const float = (value: number): OptionDef => ({ type: 'float', default: String(value) });
const str = (value = ''): OptionDef => ({ type: 'string', default: value });
const secret = (): OptionDef => ({ type: 'string', default: '', secret: true });
const json = (value: unknown): OptionDef => ({ type: 'json', default: JSON.stringify(value) });

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
  'passkey.user_verification': str('preferred'),
  /** platform | cross-platform | empty (either) */
  'passkey.attachment_preference': str(),
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
  SMTPPort: int(587),
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
  Price: float(7.3),
  MinTopUp: int(1),
  TopupGroupRatio: json({ default: 1, vip: 1, svip: 1 }),
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
  Chats: json([]),
  ChatLink: str(),
  // Display and modes
  QuotaPerUnit: float(500000),
  RetryTimes: int(0),
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
  LogRetentionDays: int(0),
  DataExportEnabled: bool(true),
  DataExportInterval: int(5),
  DataExportDefaultTime: str('hour'),
  // Channel automation
  ChannelDisableThreshold: float(5),
  AutomaticDisableChannelEnabled: bool(false),
  AutomaticEnableChannelEnabled: bool(false),
  AutomaticDisableKeywords: str(DEFAULT_AUTO_DISABLE_KEYWORDS),
  // Channel health (server/channels/health/): cool-downs on errors, latency-aware weights
  'channel_health.enabled': bool(true),
  'channel_health.window_seconds': int(60),
  'channel_health.min_requests': int(10),
  'channel_health.error_rate': float(0.5),
  'channel_health.consecutive_failures': int(5),
  'channel_health.cooldown_seconds': int(30),
  'channel_health.cooldown_max_seconds': int(600),
  'channel_health.latency_routing_enabled': bool(false),
  // Quotas
  QuotaRemindThreshold: int(1000),
  QuotaForNewUser: int(0),
  PreConsumedQuota: int(500),
  /** The model ratio of models without a price or ratio, where unset prices are accepted. */
  DefaultModelRatio: float(30),
  QuotaForInviter: int(0),
  QuotaForInvitee: int(0),
  StreamCacheQueueLength: int(0),
  // Pricing
  ModelPrice: json(DEFAULT_MODEL_PRICE),
  ModelRatio: json(DEFAULT_MODEL_RATIO),
  CompletionRatio: json(DEFAULT_COMPLETION_RATIO),
  CacheRatio: json(DEFAULT_CACHE_RATIO),
  /** Serve the four price maps above at the public GET /api/ratio_config, for other gateways' ratio sync. */
  ExposeRatioEnabled: bool(false),
  GroupRatio: json({ default: 1, vip: 1, svip: 1 }),
  UserUsableGroups: json({ default: '默认分组', vip: 'vip分组' }),
  // Rate limit
  ModelRequestRateLimitEnabled: bool(false),
  ModelRequestRateLimitCount: int(0),
  ModelRequestRateLimitSuccessCount: int(1000),
  ModelRequestRateLimitDurationMinutes: int(1),
  ModelRequestRateLimitGroup: json({}),
  /** Tokens billed per user in the sliding minute (0 = no limit), under ModelRequestRateLimitEnabled. */
  ModelRequestRateLimitTPM: int(0),
  /** Per group: `{"vip": 200000}` overrides ModelRequestRateLimitTPM (0 lifts it for the group). */
  ModelRequestRateLimitTPMGroup: json({}),
  // Provider-specific model settings
  'gemini.safety_settings': json({}),
  'gemini.version_settings': json({}),
  'gemini.supported_imagine_models': json(['gemini-2.0-flash-exp-image-generation']),
  'gemini.thinking_adapter_enabled': bool(false),
  'gemini.thinking_adapter_budget_tokens_percentage': float(0.6),
  'claude.model_headers_settings': json({}),
  'claude.default_max_tokens': json({ default: 8192 }),
  'claude.thinking_adapter_enabled': bool(true),
  'claude.thinking_adapter_budget_tokens_percentage': float(0.8),
  'global.pass_through_request_enabled': bool(false),
  'general_setting.ping_interval_enabled': bool(false),
  'general_setting.ping_interval_seconds': int(60),
  ...FAMILY_OPTIONS,
} satisfies Record<string, OptionDef>;

export type OptionKey = keyof typeof OPTION_REGISTRY;

export function isOptionKey(key: string): key is OptionKey {
  return Object.hasOwn(OPTION_REGISTRY, key);
}

/** Check a raw string against its option's type, bounds and form; returns the refusal or null. */
export function validateOptionValue(key: OptionKey, value: string): RefusalCode | null {
  const def: OptionDef = OPTION_REGISTRY[key];
  const invalid = validateType(def, value);
  if (invalid) return invalid;
  if (def.bounds && !(Number(value) >= def.bounds[0] && Number(value) <= def.bounds[1])) return 'option.out_of_range';
  return def.check?.(value) ?? null;
}

function validateType(def: OptionDef, value: string): RefusalCode | null {
  switch (def.type) {
    case 'bool':
      return value === 'true' || value === 'false' ? null : 'option.not_boolean';
    case 'int':
      // A safe integer: every int option is read back as a JavaScript number.
      return /^-?\d+$/.test(value.trim()) && Number.isSafeInteger(Number(value)) ? null : 'option.not_integer';
    case 'float':
      return value.trim() !== '' && Number.isFinite(Number(value)) ? null : 'option.not_number';
    case 'json':
      try {
        JSON.parse(value);
        return null;
      } catch {
        return 'option.not_json';
      }
    case 'string':
      return null;
  }
}
