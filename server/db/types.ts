/**
 * Table types: the one source of truth for rows, used by the server's repositories and, through
 * `import type`, by the console. Booleans are stored as 0/1 integers on every database.
 */
import type { ColumnType, Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { D, Flag, Id } from './column-types.js';
import type { PaymentEventsTable, SpendCapsTable, SubscriptionPlansTable, UserSubscriptionsTable } from './commerce-types.js';

export type { Flag };
export type * from './commerce-types.js';

export interface UsersTable {
  id: Id;
  username: string;
  password: string;
  display_name: D<string>;
  role: D<number>;
  status: D<number>;
  email: D<string>;
  github_id: D<string>;
  oidc_id: D<string>;
  wechat_id: D<string>;
  telegram_id: D<string>;
  linux_do_id: D<string>;
  access_token: string | null;
  quota: D<number>;
  used_quota: D<number>;
  request_count: D<number>;
  group: D<string>;
  aff_code: string;
  aff_count: D<number>;
  aff_quota: D<number>;
  aff_history_quota: D<number>;
  inviter_id: D<number>;
  setting: string | null;
  remark: string | null;
  create_time: D<number>;
  last_use_time: D<number>;
  deleted_at: number | null;
  /** Unix seconds of the last sign-in; null until the first. */
  last_login_at: number | null;
  discord_id: D<string>;
  /** Raised to end every session of the user (cookies carry the epoch they were issued under). */
  session_epoch: D<number>;
  /** Relayed requests per day (UTC); 0 = no limit. */
  rpd_limit: D<number>;
  /** subscription_first, wallet_first, subscription_only or wallet_only. */
  billing_preference: D<string>;
}

export interface TokensTable {
  id: Id;
  user_id: number;
  key: string;
  status: D<number>;
  name: D<string>;
  created_time: D<number>;
  accessed_time: D<number>;
  expired_time: D<number>;
  remain_quota: D<number>;
  unlimited_quota: D<Flag>;
  model_limits_enabled: D<Flag>;
  model_limits: string | null;
  allow_ips: string | null;
  used_quota: D<number>;
  group: D<string>;
  deleted_at: number | null;
  /** Tokens (prompt + completion, as billed) per sliding minute; 0 = no limit. */
  tpm_limit: D<number>;
  /** Relayed calls in flight; 0 = no limit. */
  max_concurrency: D<number>;
  /** Relayed requests per minute; 0 = no limit. */
  rpm_limit: D<number>;
  /** Relayed requests per day (UTC); 0 = no limit. */
  rpd_limit: D<number>;
  /** 1: the bodies of its calls are kept (server/observability/body-log.ts). */
  log_bodies: D<Flag>;
}

export interface ChannelsTable {
  id: Id;
  type: D<number>;
  key: string;
  openai_organization: string | null;
  test_model: string | null;
  status: D<number>;
  name: D<string>;
  weight: D<number>;
  created_time: D<number>;
  test_time: D<number>;
  response_time: D<number>;
  base_url: string | null;
  other: string | null;
  balance: D<number>;
  balance_updated_time: D<number>;
  models: string;
  group: D<string>;
  used_quota: D<number>;
  model_mapping: string | null;
  status_code_mapping: string | null;
  priority: D<number>;
  auto_ban: D<number>;
  other_info: string | null;
  tag: string | null;
  setting: string | null;
  param_override: string | null;
  max_input_tokens: D<number>;
  expired_time: D<number>;
  /** Requests per sliding minute, counted across every gateway process; 0 = no limit. */
  rpm_limit: D<number>;
  /** Calls in flight at once, across every gateway process; 0 = no limit. */
  max_concurrency: D<number>;
  /** The admin's note. */
  remark: string | null;
  /** Other settings of the channel, JSON object text kept as given. */
  settings: string | null;
  /** JSON object of extra headers sent with every upstream request of the channel. */
  header_override: string | null;
  /** How a multi-key channel uses its keys: `random` (also when null) or `polling` (in turn). */
  multi_key_mode: string | null;
}

/** A key of a multi-key channel disabled on its own, named by a hash of the key. */
export interface ChannelKeysTable {
  channel_id: number;
  key_hash: string;
  /** 2 disabled by hand, 3 disabled automatically. */
  status: number;
  reason: string | null;
  disabled_time: D<number>;
}

/** What the channel choice reads: one row per (group, model, channel). */
export interface AbilitiesTable {
  group: string;
  model: string;
  channel_id: number;
  enabled: D<Flag>;
  priority: D<number>;
  weight: D<number>;
  tag: string | null;
}

export interface LogsTable {
  id: Id;
  user_id: D<number>;
  created_at: number;
  type: number;
  content: string | null;
  username: D<string>;
  token_name: D<string>;
  token_id: D<number>;
  model_name: D<string>;
  quota: D<number>;
  prompt_tokens: D<number>;
  completion_tokens: D<number>;
  use_time: D<number>;
  is_stream: D<Flag>;
  channel_id: D<number>;
  group: D<string>;
  ip: D<string>;
  other: string | null;
}

/** The bodies of a call, kept when body logs are on for it (server/observability/body-log.ts). */
export interface LogBodiesTable {
  id: Id;
  request_id: string;
  user_id: number;
  token_id: D<number>;
  created_at: number;
  request_body: string;
  response_body: string;
  request_truncated: D<Flag>;
  response_truncated: D<Flag>;
}

/** Prompt and completion of a log row, kept apart so the log table stays narrow. */
export interface LogExtendsTable {
  log_id: number;
  prompt: string | null;
  completion: string | null;
}

export interface RedemptionsTable {
  id: Id;
  user_id: D<number>;
  key: string;
  status: D<number>;
  name: D<string>;
  quota: D<number>;
  group: D<string>;
  created_time: D<number>;
  redeemed_time: D<number>;
  used_user_id: D<number>;
  deleted_at: number | null;
  /** Unix seconds; 0 never expires. */
  expired_time: D<number>;
}

/** Named lists of models, tags or endpoints an admin prefills channel fields from. */
export interface PrefillGroupsTable {
  id: Id;
  name: string;
  /** model, tag or endpoint. */
  type: string;
  /** A JSON array of strings. */
  items: string;
  description: D<string>;
  created_time: D<number>;
  updated_time: D<number>;
}

export interface OptionsTable {
  key: string;
  value: string | null;
}

export interface TopUpsTable {
  id: Id;
  user_id: number;
  amount: D<number>;
  money: D<number>;
  trade_no: string;
  payment_method: D<string>;
  status: D<string>;
  create_time: D<number>;
  complete_time: D<number>;
  /** The provider's id of the payment (Stripe PaymentIntent, Creem order); null until known. */
  gateway_ref: string | null;
  /** Set when the order buys a subscription plan rather than quota. */
  plan_id: D<number | null>;
}

/** Drawing (Midjourney) tasks. submit_time, start_time and finish_time are milliseconds. */
export interface MidjourneysTable {
  id: Id;
  code: D<number>;
  user_id: number;
  action: D<string>;
  mj_id: D<string>;
  prompt: string | null;
  prompt_en: string | null;
  description: string | null;
  state: string | null;
  submit_time: D<number>;
  start_time: D<number>;
  finish_time: D<number>;
  image_url: string | null;
  status: D<string>;
  progress: D<string>;
  fail_reason: string | null;
  channel_id: D<number>;
  quota: D<number>;
  buttons: string | null;
  properties: string | null;
  created_at: D<number>;
}

/** Asynchronous tasks of other platforms (Suno music). Times in seconds. */
export interface TasksTable {
  id: Id;
  created_at: D<number>;
  updated_at: D<number>;
  task_id: D<string>;
  platform: D<string>;
  user_id: number;
  channel_id: D<number>;
  quota: D<number>;
  action: D<string>;
  status: D<string>;
  fail_reason: string | null;
  submit_time: D<number>;
  start_time: D<number>;
  finish_time: D<number>;
  progress: D<string>;
  properties: string | null;
  data: string | null;
}

/** Hourly totals per user, model and channel: feed the dashboard and channel statistics. */
/** Exact hourly totals of the log rows per type and scope (server/logs/totals.ts). */
export interface LogTotalsTable {
  scope: number;
  /** The scope's value: a user id, username, token name, channel id or group ('' for all rows). */
  dim: string;
  type: number;
  /** The start of the hour (Unix seconds). */
  bucket: number;
  /** '' in the scopes kept without the model. */
  model_name: string;
  count: number;
  quota: number;
  tokens: number;
}

/** quota_data summed over users, per model and channel (server/logs/hourly-totals.ts). */
export interface QuotaDataModelsTable {
  created_at: number;
  model_name: string;
  channel_id: number;
  token_used: number;
  count: number;
  quota: number;
  /** Input tokens, and the part of them read from the provider's prompt cache (0 before migration 0021). */
  prompt_tokens: D<number>;
  cached_tokens: D<number>;
}

/** quota_data summed over users and channels, per model (the dashboard of all users). */
export interface QuotaDataModelHoursTable {
  created_at: number;
  model_name: string;
  token_used: number;
  count: number;
  quota: number;
}

/** quota_data summed over models and channels, per stored username. */
export interface QuotaDataUsersTable {
  created_at: number;
  username: string;
  token_used: number;
  count: number;
  quota: number;
}

export interface QuotaDataTable {
  id: Id;
  user_id: number;
  username: D<string>;
  model_name: D<string>;
  channel_id: D<number>;
  created_at: number;
  token_used: D<number>;
  count: D<number>;
  quota: D<number>;
  prompt_tokens: D<number>;
  cached_tokens: D<number>;
}

/**
 * Quota held by one call in flight (written with the debit that holds it, deleted with the settlement
 * that replaces it by a log row). `delivered` is the cost of what the call had delivered at its last
 * checkpoint; `record` the JSON of the log row's fixed fields, for whoever resolves an orphaned hold.
 */
export interface ReservationsTable {
  id: string;
  node: string;
  user_id: number;
  token_id: D<number>;
  unlimited_token: D<Flag>;
  amount: D<number>;
  delivered: D<number>;
  prompt_tokens: D<number>;
  completion_tokens: D<number>;
  channel_id: D<number>;
  record: string | null;
  created_at: number;
  updated_at: number;
  /** 0: the wallet paid; else the subscription, in its period `subscription_period`. */
  subscription_id: D<number>;
  subscription_period: D<number>;
}

/**
 * Gateway processes, by the heartbeat each writes (`seen_at`, milliseconds). `scope` names where
 * `pid` means something (host, boot and pid namespace); `pid_start` tells a pid from its reuse.
 */
export interface NodesTable {
  id: string;
  host: D<string>;
  scope: D<string>;
  pid: D<number>;
  pid_start: D<number>;
  started_at: number;
  seen_at: number;
}

export interface LeasesTable {
  name: string;
  holder: string;
  expires_at: number;
}

/** A user's TOTP secret; `enabled` 0 while the enrolment awaits its first code. */
export interface TwoFaTable {
  id: Id;
  user_id: number;
  secret: string;
  enabled: D<Flag>;
  /** The last 30-second step a code was accepted for: a code is accepted once. */
  last_used_step: D<number>;
  created_at: D<number>;
}

/** One-time backup codes: a SHA-256 digest each, `used_at` set when spent. */
export interface TwoFaBackupCodesTable {
  id: Id;
  user_id: number;
  code_hash: string;
  used_at: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: D<number>;
}

/** WebAuthn credentials (passkeys): id and COSE public key in base64url. */
export interface PasskeysTable {
  id: Id;
  user_id: number;
  credential_id: string;
  public_key: string;
  sign_count: D<number>;
  /** Comma-separated transports the authenticator reported (usb, nfc, ble, internal, hybrid). */
  transports: D<string>;
  backed_up: D<Flag>;
  name: D<string>;
  created_at: D<number>;
  /** Seconds; 0 = never used to sign in or verify. */
  last_used_at: D<number>;
}

/** An admin's change through the console API (server/audit/). */
export interface AuditLogsTable {
  id: Id;
  created_at: number;
  request_id: string;
  actor_id: number;
  actor_username: string;
  actor_role: number;
  ip: D<string>;
  /** `METHOD /route/pattern` of the request. */
  route: string;
  subject: string;
  subject_id: D<string>;
  action: string;
  /** `pending` until the request ends, then `ok`, `refused` (a refusal that still changed something) or `error`. */
  outcome: string;
  /** JSON: the fields that changed (before → after), secrets masked, and the action's details. */
  changes: string;
}

/** A model maker, named on the pricing page; `icon` is a name or an http(s) address, never fetched here. */
export interface VendorsTable {
  id: Id;
  name: string;
  description: string | null;
  icon: D<string>;
  status: D<number>;
  created_time: D<number>;
  updated_time: D<number>;
}

/**
 * Metadata of the models matching `model_name` by `name_rule` (exact, prefix, contains, suffix):
 * what the pricing page shows besides the price. `endpoints` is JSON text (endpoint type → path).
 */
export interface ModelsTable {
  id: Id;
  model_name: string;
  description: string | null;
  icon: D<string>;
  tags: D<string>;
  vendor_id: D<number>;
  endpoints: string | null;
  context_length: D<number>;
  max_output_tokens: D<number>;
  knowledge_cutoff: D<string>;
  release_date: D<string>;
  parameter_count: D<string>;
  input_modalities: D<string>;
  output_modalities: D<string>;
  status: D<number>;
  sync_official: D<Flag>;
  name_rule: D<number>;
  created_time: D<number>;
  updated_time: D<number>;
}

/** One row per user and day checked in (`checkin_date` YYYY-MM-DD, server time). */
export interface CheckinsTable {
  id: Id;
  user_id: number;
  checkin_date: string;
  quota_awarded: number;
  created_at: number;
}

/** A custom sign-in provider of the family's console (`kind`: oauth_code, jwt_direct, trusted_header). */
export interface CustomOauthProvidersTable {
  id: Id;
  name: string;
  slug: string;
  icon: D<string>;
  kind: D<string>;
  enabled: D<Flag>;
  client_id: D<string>;
  client_secret: D<string>;
  authorization_endpoint: D<string>;
  token_endpoint: D<string>;
  user_info_endpoint: D<string>;
  scopes: D<string>;
  issuer: D<string>;
  audience: D<string>;
  jwks_url: D<string>;
  public_key: string | null;
  jwt_source: D<string>;
  jwt_header: D<string>;
  trusted_proxy_cidrs: string | null;
  external_id_header: D<string>;
  username_header: D<string>;
  display_name_header: D<string>;
  email_header: D<string>;
  user_id_field: D<string>;
  username_field: D<string>;
  display_name_field: D<string>;
  email_field: D<string>;
  well_known: D<string>;
  auth_style: D<number>;
  auto_register: D<Flag>;
  created_at: number;
  updated_at: number;
}

/** A user's account at a custom provider. */
export interface UserOauthBindingsTable {
  id: Id;
  user_id: number;
  provider_id: number;
  provider_user_id: string;
  created_at: number;
}

export interface Database {
  users: UsersTable;
  tokens: TokensTable;
  channels: ChannelsTable;
  abilities: AbilitiesTable;
  channel_keys: ChannelKeysTable;
  logs: LogsTable;
  log_extends: LogExtendsTable;
  log_bodies: LogBodiesTable;
  log_totals: LogTotalsTable;
  redemptions: RedemptionsTable;
  options: OptionsTable;
  top_ups: TopUpsTable;
  payment_events: PaymentEventsTable;
  prefill_groups: PrefillGroupsTable;
  midjourneys: MidjourneysTable;
  tasks: TasksTable;
  quota_data: QuotaDataTable;
  quota_data_models: QuotaDataModelsTable;
  quota_data_model_hours: QuotaDataModelHoursTable;
  quota_data_users: QuotaDataUsersTable;
  reservations: ReservationsTable;
  nodes: NodesTable;
  leases: LeasesTable;
  two_fa: TwoFaTable;
  two_fa_backup_codes: TwoFaBackupCodesTable;
  passkeys: PasskeysTable;
  audit_logs: AuditLogsTable;
  vendors: VendorsTable;
  models: ModelsTable;
  checkins: CheckinsTable;
  custom_oauth_providers: CustomOauthProvidersTable;
  user_oauth_bindings: UserOauthBindingsTable;
  subscription_plans: SubscriptionPlansTable;
  user_subscriptions: UserSubscriptionsTable;
  spend_caps: SpendCapsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Token = Selectable<TokensTable>;
export type Channel = Selectable<ChannelsTable>;
export type Log = Selectable<LogsTable>;
export type LogExtend = Selectable<LogExtendsTable>;
export type NewLog = Insertable<LogsTable>;
export type Redemption = Selectable<RedemptionsTable>;
export type TopUp = Selectable<TopUpsTable>;
export type PrefillGroup = Selectable<PrefillGroupsTable>;
export type Midjourney = Selectable<MidjourneysTable>;
export type Task = Selectable<TasksTable>;
export type QuotaData = Selectable<QuotaDataTable>;
export type Reservation = Selectable<ReservationsTable>;
export type TwoFa = Selectable<TwoFaTable>;
export type Passkey = Selectable<PasskeysTable>;
export type AuditLog = Selectable<AuditLogsTable>;
export type Vendor = Selectable<VendorsTable>;
export type ModelMeta = Selectable<ModelsTable>;
export type CustomOauthProvider = Selectable<CustomOauthProvidersTable>;
export type NewCustomOauthProvider = Insertable<CustomOauthProvidersTable>;
export type { ColumnType };

/**
 * What a migration receives: a database of no particular schema, since a migration runs against the
 * tables as they were at its number, not as `Database` describes them today.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's schema builder needs an open table map here
export type MigrationDb = Kysely<any>;
