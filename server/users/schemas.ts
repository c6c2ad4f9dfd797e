/**
 * Request and answer shapes of the user endpoints (self-service and admin). The console imports
 * the `Static` types; the routes use the schemas to validate input and to serialize answers, so a
 * field missing here (the password hash, the access token) can never reach a client.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Int53, Nullable, Page } from '../http/schemas.js';

export const PublicUser = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  display_name: Type.String(),
  role: Type.Integer(),
  status: Type.Integer(),
  email: Type.String(),
  github_id: Type.String(),
  oidc_id: Type.String(),
  wechat_id: Type.String(),
  telegram_id: Type.String(),
  linux_do_id: Type.String(),
  discord_id: Type.String(),
  billing_preference: Type.String(),
  quota: Type.Number(),
  used_quota: Type.Number(),
  request_count: Type.Number(),
  group: Type.String(),
  aff_code: Type.String(),
  aff_count: Type.Number(),
  aff_quota: Type.Number(),
  aff_history_quota: Type.Number(),
  inviter_id: Type.Integer(),
  /** The user's settings as a JSON string, without the webhook secret; "" when never set. */
  setting: Type.String(),
  remark: Type.String(),
  /** Relayed requests per day (UTC), counted across every process; 0 = no limit. */
  rpd_limit: Type.Integer(),
  create_time: Type.Number(),
  /** When the user last called the relay (Unix seconds); 0 never. */
  last_use_time: Type.Number(),
  /** The family's names: sign-up and last sign-in (Unix seconds), null when unknown or never. */
  created_at: Nullable(Type.Integer()),
  last_login_at: Nullable(Type.Integer()),
  /** When the account was deregistered, as the family sends it (ISO 8601); null while it is not. */
  DeletedAt: Nullable(Type.String()),
});
export type PublicUser = Static<typeof PublicUser>;

// ---- User setting ----

export const NotifyType = Type.Union([Type.Literal('email'), Type.Literal('webhook')]);
export type NotifyType = Static<typeof NotifyType>;

/** The stored notification and billing preferences of a user (users.setting). */
export const UserSetting = Type.Object({
  notify_type: NotifyType,
  quota_warning_threshold: Type.Number(),
  webhook_url: Type.String(),
  webhook_secret: Type.String(),
  notification_email: Type.String(),
  accept_unset_model_ratio_model: Type.Boolean(),
});
export type UserSetting = Static<typeof UserSetting>;

/** What the console sees of the setting: the webhook secret is write-only. */
export const UserSettingView = Type.Object({
  notify_type: NotifyType,
  quota_warning_threshold: Type.Number(),
  webhook_url: Type.String(),
  webhook_secret_set: Type.Boolean(),
  notification_email: Type.String(),
  accept_unset_model_ratio_model: Type.Boolean(),
});
export type UserSettingView = Static<typeof UserSettingView>;

/** PUT /api/user/setting. An absent webhook_secret keeps the stored one. */
export const UserSettingBody = Type.Object({
  notify_type: NotifyType,
  quota_warning_threshold: Type.Number(),
  webhook_url: Type.Optional(Type.String({ maxLength: 512 })),
  webhook_secret: Type.Optional(Type.String({ maxLength: 256 })),
  notification_email: Type.Optional(Type.String({ maxLength: 128 })),
  accept_unset_model_ratio_model: Type.Optional(Type.Boolean()),
});
export type UserSettingBody = Static<typeof UserSettingBody>;

// ---- Self-service ----

/** GET /api/user/self: the public user plus what the personal page derives from it. */
export const SelfUser = Type.Composite([
  PublicUser,
  Type.Object({
    /** Whether a system access token has been generated (the token itself is shown only once). */
    has_access_token: Type.Boolean(),
    settings: UserSettingView,
  }),
]);
export type SelfUser = Static<typeof SelfUser>;

/**
 * PUT /api/user/self: a profile edit (display_name) and/or a password change
 * ({original_password, password}). Other fields are ignored.
 */
export const UpdateSelfBody = Type.Object({
  display_name: Type.Optional(Type.String({ maxLength: 64 })),
  original_password: Type.Optional(Type.String({ maxLength: 128 })),
  password: Type.Optional(Type.String({ maxLength: 128 })),
});
export type UpdateSelfBody = Static<typeof UpdateSelfBody>;

export const AffTransferBody = Type.Object({ quota: Int53() });
export type AffTransferBody = Static<typeof AffTransferBody>;

export const AffTransferResult = Type.Object({ quota: Type.Number(), aff_quota: Type.Number() });
export type AffTransferResult = Static<typeof AffTransferResult>;

/** GET /api/user/self/groups: group name → description and price ratio. */
export const UserGroups = Type.Record(Type.String(), Type.Object({ desc: Type.String(), ratio: Type.Number() }));
export type UserGroups = Static<typeof UserGroups>;

export const StringList = Type.Array(Type.String());

// ---- Admin ----

/** Quota spent over the last day / week / month, and the change against the period before. */
export const UserUsage = Type.Object({
  day: Type.Number(),
  week: Type.Number(),
  month: Type.Number(),
  /** (this period − previous) / previous; null when the previous period spent nothing. */
  day_on_day: Nullable(Type.Number()),
  week_on_week: Nullable(Type.Number()),
  month_on_month: Nullable(Type.Number()),
});
export type UserUsage = Static<typeof UserUsage>;

export const UserListItem = Type.Composite([PublicUser, Type.Object({ usage: UserUsage })]);
export type UserListItem = Static<typeof UserListItem>;

export const UserPage = Page(UserListItem);
export type UserPage = Static<typeof UserPage>;

export const PageQuery = Type.Object({
  p: Type.Optional(Type.Integer()),
  page_size: Type.Optional(Type.Integer()),
});
export type PageQuery = Static<typeof PageQuery>;

export const UserSearchQuery = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 100 })),
  group: Type.Optional(Type.String({ maxLength: 64 })),
  p: Type.Optional(Type.Integer()),
  page_size: Type.Optional(Type.Integer()),
});
export type UserSearchQuery = Static<typeof UserSearchQuery>;

export const UserQueryQuery = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 100 })),
  group: Type.Optional(Type.String({ maxLength: 64 })),
});
export type UserQueryQuery = Static<typeof UserQueryQuery>;

export const UserIdParams = Type.Object({ id: Type.Integer() });
export type UserIdParams = Static<typeof UserIdParams>;

/** POST /api/user/. Missing fields get the family's refusal rather than a schema error. */
export const CreateUserBody = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 64 })),
  display_name: Type.Optional(Type.String({ maxLength: 64 })),
  password: Type.Optional(Type.String({ maxLength: 128 })),
  role: Type.Optional(Type.Integer()),
  /** The admin's note, never shown to the user. */
  remark: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
});
export type CreateUserBody = Static<typeof CreateUserBody>;

/**
 * PUT /api/user/: the console sends the whole user; only these fields are applied. An empty or
 * absent password leaves it unchanged. Role and status change through POST /api/user/manage.
 */
export const UpdateUserBody = Type.Object({
  id: Type.Integer(),
  username: Type.Optional(Type.String({ maxLength: 64 })),
  display_name: Type.Optional(Type.String({ maxLength: 64 })),
  password: Type.Optional(Type.String({ maxLength: 128 })),
  group: Type.Optional(Type.String({ maxLength: 64 })),
  quota: Type.Optional(Int53()),
  /** Relayed requests per day; 0 = no limit. */
  rpd_limit: Type.Optional(Type.Number()),
  /** The admin's note, never shown to the user; empty or null clears it. */
  remark: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
});
export type UpdateUserBody = Static<typeof UpdateUserBody>;

export const ManageAction = Type.Union([
  Type.Literal('promote'),
  Type.Literal('demote'),
  Type.Literal('disable'),
  Type.Literal('enable'),
  Type.Literal('delete'),
  Type.Literal('add_quota'),
]);
export type ManageAction = Static<typeof ManageAction>;

/** How `add_quota` changes the balance by `value`: add it, take it away, or set the balance to it. */
export const QuotaMode = Type.Union([Type.Literal('add'), Type.Literal('subtract'), Type.Literal('override')]);
export type QuotaMode = Static<typeof QuotaMode>;

/** POST /api/user/manage. `mode` and `value` (quota) belong to `add_quota` only. */
export const ManageBody = Type.Object({
  id: Type.Integer(),
  action: ManageAction,
  mode: Type.Optional(QuotaMode),
  value: Type.Optional(Int53()),
});
export type ManageBody = Static<typeof ManageBody>;

/** The user's status and role after the action; `add_quota` also answers the new balance. */
export const ManageResult = Type.Object({ status: Type.Integer(), role: Type.Integer(), quota: Type.Optional(Type.Number()) });
export type ManageResult = Static<typeof ManageResult>;
