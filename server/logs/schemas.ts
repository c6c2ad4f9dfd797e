/**
 * The log API's shapes (GET /api/log/…), shared by the server routes and the console's Usage logs
 * screen. A log row's `other` is a JSON string: see LogOther.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Page } from '../http/schemas.js';

export const LOG_TYPES = { topup: 1, consume: 2, manage: 3, system: 4, error: 5, refund: 6 } as const;

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
  start_timestamp: Type.Optional(Type.Integer({ minimum: 0 })),
  end_timestamp: Type.Optional(Type.Integer({ minimum: 0 })),
  channel: Type.Optional(Type.Integer({ minimum: 0 })),
  group: Type.Optional(Type.String({ maxLength: 64 })),
});
export type LogQuery = Static<typeof LogQuery>;

export const LogStat = Type.Object({ quota: Type.Integer(), rpm: Type.Integer(), tpm: Type.Integer() });
export type LogStat = Static<typeof LogStat>;

export const LogExtend = Type.Object({ prompt: Type.String(), completion: Type.String() });
export type LogExtend = Static<typeof LogExtend>;

/** GET /api/data/channelUseData rows (channel statistics). */
export const ChannelUseRow = Type.Object({
  channel_id: Type.Integer(),
  model_name: Type.String(),
  token_used: Type.Integer(),
  count: Type.Integer(),
  quota: Type.Integer(),
});
export type ChannelUseRow = Static<typeof ChannelUseRow>;

export const ChannelUseQuery = Type.Object({
  model_name: Type.Optional(Type.String({ maxLength: 255 })),
  start_timestamp: Type.Optional(Type.Integer({ minimum: 0 })),
  end_timestamp: Type.Optional(Type.Integer({ minimum: 0 })),
  channel_id: Type.Optional(Type.Integer({ minimum: 0 })),
  /** true: one row per channel (models merged). */
  merge: Type.Optional(Type.Boolean()),
});
export type ChannelUseQuery = Static<typeof ChannelUseQuery>;
