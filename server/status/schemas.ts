import { Type, type Static } from '@sinclair/typebox';

/** GET /api/status data: what the console stores locally as `status`. */
export const SiteStatus = Type.Object({
  system_name: Type.String(),
  logo: Type.String(),
  footer_html: Type.String(),
  quota_per_unit: Type.Number(),
  display_in_currency: Type.Boolean(),
  enable_drawing: Type.Boolean(),
  enable_task: Type.Boolean(),
  enable_data_export: Type.Boolean(),
  chats: Type.Array(Type.Unknown()),
  data_export_default_time: Type.String(),
  /** Minutes between writes of the hourly totals the dashboard and channel statistics read. */
  data_export_interval: Type.Number(),
  default_collapse_sidebar: Type.Boolean(),
  mj_notify_enabled: Type.Boolean(),
  chat_link: Type.String(),
  docs_link: Type.String(),
  /** The floating customer-service button's target; empty: no button. */
  support_link: Type.String(),
  turnstile_check: Type.Boolean(),
  turnstile_site_key: Type.String(),
  email_verification: Type.Boolean(),
  github_oauth: Type.Boolean(),
  github_client_id: Type.String(),
  oidc_enabled: Type.Boolean(),
  oidc_client_id: Type.String(),
  oidc_authorization_endpoint: Type.String(),
  wechat_login: Type.Boolean(),
  wechat_qrcode: Type.String(),
  telegram_oauth: Type.Boolean(),
  telegram_bot_name: Type.String(),
  linuxdo_oauth: Type.Boolean(),
  linuxdo_client_id: Type.String(),
  discord_oauth: Type.Boolean(),
  discord_client_id: Type.String(),
  /** Sign-in with a passkey is offered (new-api's names for the passkey settings follow). */
  passkey_login: Type.Boolean(),
  passkey_display_name: Type.String(),
  passkey_rp_id: Type.String(),
  passkey_origins: Type.String(),
  passkey_allow_insecure: Type.Boolean(),
  passkey_user_verification: Type.String(),
  passkey_attachment: Type.String(),
  version: Type.String(),
  start_time: Type.Number(),
  self_use_mode_enabled: Type.Boolean(),
  demo_site_enabled: Type.Boolean(),
  server_address: Type.String(),
  top_up_link: Type.String(),
  min_topup: Type.Number(),
  enable_online_topup: Type.Boolean(),
  setup: Type.Boolean(),
  register_enabled: Type.Boolean(),
  password_login_enabled: Type.Boolean(),
  password_register_enabled: Type.Boolean(),
  quota_display_type: Type.String(),
  usd_exchange_rate: Type.Number(),
  price: Type.Number(),
  notice: Type.String(),
  /** What the family's console turns its pages and panels on by. */
  user_agreement_enabled: Type.Boolean(),
  privacy_policy_enabled: Type.Boolean(),
  checkin_enabled: Type.Boolean(),
  uptime_kuma_enabled: Type.Boolean(),
  api_info_enabled: Type.Boolean(),
  announcements_enabled: Type.Boolean(),
  faq_enabled: Type.Boolean(),
});
export type SiteStatus = Static<typeof SiteStatus>;

/** GET /api/status/update: the running version against the newest release of the configured feed. */
export const UpdateCheck = Type.Object({
  current_version: Type.String(),
  latest_version: Type.String(),
  update_available: Type.Boolean(),
  release_url: Type.String(),
  published_at: Type.String(),
});
export type UpdateCheck = Static<typeof UpdateCheck>;

export const SetupState = Type.Object({
  status: Type.Boolean(),
  root_init: Type.Boolean(),
  database_type: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres'), Type.Literal('mysql')]),
});
export type SetupState = Static<typeof SetupState>;

export const SetupBody = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 64 })),
  password: Type.Optional(Type.String({ maxLength: 128 })),
  confirmPassword: Type.Optional(Type.String({ maxLength: 128 })),
  SelfUseModeEnabled: Type.Optional(Type.Boolean()),
  DemoSiteEnabled: Type.Optional(Type.Boolean()),
});
export type SetupBody = Static<typeof SetupBody>;
