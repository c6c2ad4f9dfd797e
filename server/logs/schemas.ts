/**
 * The log API's shapes (GET /api/log/…), shared by the server routes and the console's Usage logs
 * screen. A log row's `other` is a JSON string: see LogOther.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Envelope, Int53, Page } from '../http/schemas.js';

export { LOG_TYPES } from './types.js';

export const LogItem = Type.Object({
  id: Type.Integer(),
  created_at: Type.Integer(),
  type: Type.Integer(),
  content: Type.String(),
  username: Type.String(),
  user_id: Type.Integer(),
  token_name: Type.String(),
  token_id: Type.Integer(),
  model_name: Type.String(),
  quota: Type.Integer(),
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  use_time: Type.Integer(),
  is_stream: Type.Boolean(),
  /** Channel id; admins only (0 for others). */
  channel: Type.Integer(),
  /** Channel name; admins only (empty for others). */
  channel_name: Type.String(),
  group: Type.String(),
  /** JSON string of LogOther; `admin_info` stripped for non-admins. */
  other: Type.String(),
});
export type LogItem = Static<typeof LogItem>;

/** What a consume row's `other` JSON may hold. */
export interface LogOther {
  client_ip?: string;
  model_ratio?: number;
  model_price?: number;
  group_ratio?: number;
  completion_ratio?: number;
  cache_tokens?: number;
  cache_ratio?: number;
  cache_creation_tokens?: number;
  /** First-token time, ms. */
  frt?: number;
  is_model_mapped?: boolean;
  upstream_model_name?: string;
  local_count?: boolean;
  client_aborted?: boolean;
  status_code?: number;
  admin_info?: { use_channel?: number[]; use_channel_err_info?: string[]; use_channel_use_time?: number[] };
  reasoning_effort?: string;
  /** What a row the gateway wrote about itself says, for the console to word (server/logs/messages.ts). */
  message?: { key: string; values: Record<string, string | number> };
  /** An error row's refusal by the gateway itself, by its code (server/http/refusals.ts). */
  refusal?: { code: string; params?: Record<string, string | number> };
}

export const LogPage = Page(LogItem);
export type LogPage = Static<typeof LogPage>;

/** Filters of GET /api/log/ (admin: all users) and /api/log/self/ (own rows; username and channel ignored). */
export const LogQuery = Type.Object({
  p: Type.Optional(Type.Integer({ minimum: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  type: Type.Optional(Type.Integer({ minimum: 0, maximum: 6 })),
  username: Type.Optional(Type.String({ maxLength: 64 })),
  token_name: Type.Optional(Type.String({ maxLength: 64 })),
  model_name: Type.Optional(Type.String({ maxLength: 255 })),
  start_timestamp: Type.Optional(Int53({ minimum: 0 })),
  end_timestamp: Type.Optional(Int53({ minimum: 0 })),
  channel: Type.Optional(Type.Integer({ minimum: 0 })),
  group: Type.Optional(Type.String({ maxLength: 64 })),
});
export type LogQuery = Static<typeof LogQuery>;

export const LogStat = Type.Object({ quota: Type.Integer(), rpm: Type.Integer(), tpm: Type.Integer() });
export type LogStat = Static<typeof LogStat>;

export const LogExtend = Type.Object({ prompt: Type.String(), completion: Type.String() });
export type LogExtend = Static<typeof LogExtend>;

/** GET /api/log/body/:id: the bodies kept for a row's call (opt-in body logs), each capped. */
export const LogBody = Type.Object({
  request_body: Type.String(),
  response_body: Type.String(),
  request_truncated: Type.Boolean(),
  response_truncated: Type.Boolean(),
  created_at: Type.Integer(),
});
export type LogBody = Static<typeof LogBody>;

/** GET /api/data/channelUseData rows (channel statistics). */
export const ChannelUseRow = Type.Object({
  channel_id: Type.Integer(),
  model_name: Type.String(),
  token_used: Type.Integer(),
  count: Type.Integer(),
  quota: Type.Integer(),
  /** Input tokens, and the part of them the upstream read from its prompt cache (0 for hours before they were kept). */
  prompt_tokens: Type.Integer(),
  cached_tokens: Type.Integer(),
  /** cached_tokens ÷ prompt_tokens; null without input tokens. */
  cache_hit_rate: Type.Union([Type.Number(), Type.Null()]),
});
export type ChannelUseRow = Static<typeof ChannelUseRow>;

export const ChannelUseQuery = Type.Object({
  model_name: Type.Optional(Type.String({ maxLength: 255 })),
  start_timestamp: Type.Optional(Int53({ minimum: 0 })),
  end_timestamp: Type.Optional(Int53({ minimum: 0 })),
  channel_id: Type.Optional(Type.Integer({ minimum: 0 })),
  /** true: one row per channel (models merged). */
  merge: Type.Optional(Type.Boolean()),
});
export type ChannelUseQuery = Static<typeof ChannelUseQuery>;

// ---- Additions: answer envelopes and the shapes of the other log and data calls ----

/**
 * What GET /api/log/ answers in `data`: a LogPage plus `total_capped`. Counting every matching row
 * of a table with millions of them costs as much as reading it, so `total` counts at most
 * LOG_COUNT_WINDOW rows past the requested page; `total_capped` is true when that limit was hit
 * (there are at least `total` rows; paging further raises it).
 */
export const LogListPage = Type.Composite([LogPage, Type.Object({ total_capped: Type.Optional(Type.Boolean()) })]);
export type LogListPage = Static<typeof LogListPage>;

/** How many matching rows past the requested page `total` counts at most (see LogListPage). */
export const LOG_COUNT_WINDOW = 10_000;

/**
 * LogQuery plus `key`: a token key (with or without `sk-`) narrows the list to that token's rows
 * (on /self only the caller's own tokens match).
 */
export const LogListQuery = Type.Composite([LogQuery, Type.Object({ key: Type.Optional(Type.String({ maxLength: 128 })) })]);
export type LogListQuery = Static<typeof LogListQuery>;

export const LogIdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
export type LogIdParams = Static<typeof LogIdParams>;

/** DELETE /api/log/?target_timestamp=: rows created strictly before it go. */
export const LogCleanupQuery = Type.Object({ target_timestamp: Type.Optional(Int53({ minimum: 1 })) });
export type LogCleanupQuery = Static<typeof LogCleanupQuery>;

/** GET /api/data/ and /api/data/self: hourly usage rows for the dashboard. */
export const QuotaDataQuery = Type.Object({
  /** Admin only: one user's rows (ignored on /self). */
  username: Type.Optional(Type.String({ maxLength: 64 })),
  /** Default: 7 days before `end_timestamp`. */
  start_timestamp: Type.Optional(Int53({ minimum: 0 })),
  /** Default (or 0): now. */
  end_timestamp: Type.Optional(Int53({ minimum: 0 })),
  /** The console's granularity choice (hour, day, week); rows are always hourly, it groups them. */
  default_time: Type.Optional(Type.String({ maxLength: 16 })),
});
export type QuotaDataQuery = Static<typeof QuotaDataQuery>;

/** One hour of one model's usage (summed over users and channels; over one user's on /self or with `username`). */
export const QuotaDataRow = Type.Object({
  model_name: Type.String(),
  /** Start of the hour, Unix seconds. */
  created_at: Type.Integer(),
  token_used: Type.Integer(),
  count: Type.Integer(),
  quota: Type.Integer(),
});
export type QuotaDataRow = Static<typeof QuotaDataRow>;

/** GET /api/data/users: one hour of one user's usage (summed over models and channels), for the ranking of users. */
export const UserUsageRow = Type.Object({
  username: Type.String(),
  /** Start of the hour, Unix seconds. */
  created_at: Type.Integer(),
  token_used: Type.Integer(),
  count: Type.Integer(),
  quota: Type.Integer(),
});
export type UserUsageRow = Static<typeof UserUsageRow>;

export const LogPageAnswer = Envelope(LogListPage);
export const LogStatAnswer = Envelope(LogStat);
export const LogExtendAnswer = Envelope(LogExtend);
export const LogBodyAnswer = Envelope(Type.Union([LogBody, Type.Null()]));
export const LogCleanupAnswer = Envelope(Type.Integer());
export const ChannelUseAnswer = Envelope(Type.Array(ChannelUseRow));
export const QuotaDataAnswer = Envelope(Type.Array(QuotaDataRow));
export const UserUsageAnswer = Envelope(Type.Array(UserUsageRow));
