/**
 * Request and answer shapes of the channel endpoints. The console imports the `Static` types; the
 * routes serialize every answer through these schemas, so the channel key — absent here — can
 * never reach a client.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Page, type Answered } from '../http/schemas.js';
import type { Channel } from '../db/types.js';

/** A channel's health as routing sees it; `disabled` when its status keeps it out of routing. */
export const ChannelHealthView = Type.Object({
  state: Type.Union([Type.Literal('healthy'), Type.Literal('cooling'), Type.Literal('half_open'), Type.Literal('disabled')]),
  /** Epoch seconds a cool-down ends (then one call decides); 0 otherwise. */
  until: Type.Number(),
  /** What tripped it: error_rate, consecutive, probe_failed; "" when healthy. */
  rule: Type.String(),
  /** The last error before it tripped, or the reason it was disabled. */
  reason: Type.String(),
  /** Trips in a row (each doubles the cool-down). */
  trips: Type.Integer(),
  failures: Type.Integer(),
  requests: Type.Integer(),
});
export type ChannelHealthView = Static<typeof ChannelHealthView>;

/** One key of a multi-key channel: never the key, only its position and last four characters. */
export const ChannelKeyView = Type.Object({
  index: Type.Integer(),
  /** `…abcd` */
  tail: Type.String(),
  /** 1 enabled, 2 disabled by hand, 3 disabled automatically. */
  status: Type.Integer(),
  reason: Type.String(),
  disabled_time: Type.Number(),
  health: ChannelHealthView,
});
export type ChannelKeyView = Static<typeof ChannelKeyView>;

/** new-api's summary of a multi-key channel. */
export const ChannelInfoView = Type.Object({
  is_multi_key: Type.Boolean(),
  multi_key_size: Type.Integer(),
  multi_key_mode: Type.String(),
});
export type ChannelInfoView = Static<typeof ChannelInfoView>;

/** What a channel view carries beyond its row (lists, the channel read, write answers). */
const ChannelRuntime = {
  health: Type.Optional(ChannelHealthView),
  /** The keys of a multi-key channel; empty for a channel with one key. */
  keys: Type.Optional(Type.Array(ChannelKeyView)),
  channel_info: Type.Optional(ChannelInfoView),
};

/** A channel as the console sees it: every column but the key; a text column never set is "". */
export const ChannelView = Type.Object({
  id: Type.Integer(),
  type: Type.Integer(),
  name: Type.String(),
  openai_organization: Type.String(),
  test_model: Type.String(),
  status: Type.Integer(),
  weight: Type.Integer(),
  priority: Type.Integer(),
  created_time: Type.Number(),
  test_time: Type.Number(),
  response_time: Type.Number(),
  base_url: Type.String(),
  other: Type.String(),
  balance: Type.Number(),
  balance_updated_time: Type.Number(),
  /** Comma-separated model names. */
  models: Type.String(),
  /** Comma-separated group names. */
  group: Type.String(),
  used_quota: Type.Number(),
  model_mapping: Type.String(),
  status_code_mapping: Type.String(),
  auto_ban: Type.Integer(),
  /** JSON: {status_reason, status_time} of the last automatic status change. */
  other_info: Type.String(),
  tag: Type.String(),
  setting: Type.String(),
  param_override: Type.String(),
  max_input_tokens: Type.Integer(),
  expired_time: Type.Number(),
  /** How a multi-key channel uses its keys: random (also when "") or polling. */
  multi_key_mode: Type.String(),
  ...ChannelRuntime,
  /** Requests per minute across every gateway process; 0 = no limit. */
  rpm_limit: Type.Integer(),
  /** Calls in flight at once across every gateway process; 0 = no limit. */
  max_concurrency: Type.Integer(),
  remark: Type.String(),
  /** JSON object text, kept as given. */
  settings: Type.String(),
  /** JSON object of extra upstream headers (name → text). */
  header_override: Type.String(),
});
export type ChannelView = Static<typeof ChannelView>;

// The schema must describe exactly the row minus its key, its nullable columns answered as "".
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const viewMatchesRow: Same<Omit<ChannelView, keyof typeof ChannelRuntime>, Answered<Omit<Channel, 'key'>>> = true;
void viewMatchesRow;

/**
 * A page of channels. In tag mode the page counts tags, not channels: `items` holds every channel
 * of the page's tags (untagged channels are left out), flat, for the console to group, and `total`
 * is the number of tags. `type_counts`: channel type → how many channels match the filters other
 * than `type` (what the console's type tabs show).
 */
export const ChannelPage = Type.Composite([
  Page(ChannelView),
  Type.Object({ type_counts: Type.Record(Type.String(), Type.Integer()) }),
]);
export type ChannelPage = Static<typeof ChannelPage>;

// ---- Queries ----

const ListFlags = {
  p: Type.Optional(Type.Integer()),
  page_size: Type.Optional(Type.Integer()),
  /** Order by id only (newest first) instead of priority, then id. */
  id_sort: Type.Optional(Type.Boolean()),
  /** Pages by tag: the channels of each tag on the page, untagged ones left out (see ChannelPage). */
  tag_mode: Type.Optional(Type.Boolean()),
  /** Only channels of this type (the type tabs). */
  type: Type.Optional(Type.Integer()),
};

export const ChannelListQuery = Type.Object(ListFlags);
export type ChannelListQuery = Static<typeof ChannelListQuery>;

export const ChannelSearchQuery = Type.Object({
  ...ListFlags,
  /** A channel id (exact), part of a name, or a whole key. */
  keyword: Type.Optional(Type.String({ maxLength: 4096 })),
  /** One entry of the channel's group list. */
  group: Type.Optional(Type.String({ maxLength: 64 })),
  /** One entry of the channel's model list. */
  model: Type.Optional(Type.String({ maxLength: 255 })),
});
export type ChannelSearchQuery = Static<typeof ChannelSearchQuery>;

export const ChannelStatusFilter = Type.Union([
  Type.Literal(''),
  Type.Literal('all'),
  Type.Literal('enabled'),
  Type.Literal('disabled'),
  Type.Literal('auto_disabled'),
  Type.Literal('0'),
  Type.Literal('1'),
  Type.Literal('2'),
  Type.Literal('3'),
]);
export type ChannelStatusFilter = Static<typeof ChannelStatusFilter>;

export const ChannelNewSearchQuery = Type.Object({
  ...ChannelSearchQuery.properties,
  /** all (or empty / 0), enabled (1), disabled (2, by hand), auto_disabled (3). */
  status: Type.Optional(ChannelStatusFilter),
  /** A whole key; needs `model`. */
  key: Type.Optional(Type.String({ maxLength: 4096 })),
});
export type ChannelNewSearchQuery = Static<typeof ChannelNewSearchQuery>;

export const ChannelIdParams = Type.Object({ id: Type.Integer() });
export type ChannelIdParams = Static<typeof ChannelIdParams>;

export const CopyQuery = Type.Object({
  /** Appended to the copy's name; default `_复制`. */
  suffix: Type.Optional(Type.String({ maxLength: 64 })),
});
export type CopyQuery = Static<typeof CopyQuery>;

// ---- Bodies ----

/** A list given as an array of names or one comma-separated string. */
export const NameList = Type.Union([Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 5000 }), Type.String()]);
export type NameList = Static<typeof NameList>;

const OptionalText = Type.Optional(Nullable(Type.String()));

/** The editable fields of a channel, shared by create and full update. */
const ChannelFields = {
  name: Type.Optional(Type.String()),
  type: Type.Optional(Type.Integer()),
  /** Write-only. On update, empty or absent keeps the stored key. */
  key: Type.Optional(Type.String()),
  openai_organization: OptionalText,
  test_model: OptionalText,
  base_url: OptionalText,
  other: OptionalText,
  models: Type.Optional(NameList),
  group: Type.Optional(NameList),
  model_mapping: OptionalText,
  status_code_mapping: OptionalText,
  setting: OptionalText,
  param_override: OptionalText,
  tag: OptionalText,
  auto_ban: Type.Optional(Type.Integer()),
  /** 0: no limit. */
  max_input_tokens: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Requests per minute; 0 or absent: no limit. */
  rpm_limit: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Calls in flight at once; 0 or absent: no limit. */
  max_concurrency: Type.Optional(Type.Integer({ minimum: 0 })),
  remark: OptionalText,
  settings: OptionalText,
  header_override: OptionalText,
  /** An integer (or its string), at least -999; empty means 0 (create) or unchanged (update). */
  priority: Type.Optional(Type.Unknown()),
  /** A non-negative integer (or its string); below 0 becomes 0; empty means 0 / unchanged. */
  weight: Type.Optional(Type.Unknown()),
  /** A channel with several keys (one per line): `random` (empty too) or `polling`. */
  multi_key_mode: OptionalText,
};

const CreateFields = {
  ...ChannelFields,
  id: Type.Optional(Type.Integer()),
  /** 1 enabled (default), 2 disabled. */
  status: Type.Optional(Type.Integer()),
};

/**
 * POST /api/channel/, flat (the fields at the top level) or as new-api's console sends it:
 * `{mode, multi_key_mode, channel: {…fields}}`. `mode: 'single'` (default) creates one channel,
 * `'batch'` one channel per line of `key`, `'multi_to_single'` one channel holding every line as
 * its keys, used as `multi_key_mode` says. A body carrying the `id` of an existing channel and no
 * key is a copy of that channel (root only): the key is taken from it; every other field comes
 * from the body.
 */
export const CreateChannelBody = Type.Object({
  ...CreateFields,
  mode: Type.Optional(Type.Union([Type.Literal('single'), Type.Literal('batch'), Type.Literal('multi_to_single')])),
  channel: Type.Optional(Type.Object(CreateFields)),
});
export type CreateChannelBody = Static<typeof CreateChannelBody>;

/**
 * PUT /api/channel/. With any editable field it is a full edit (root only); `{id, status}`,
 * `{id, priority}` and `{id, weight}` alone are quick edits an admin may make. `status` is only
 * applied by a quick edit (1 enable, 2 disable).
 */
export const UpdateChannelBody = Type.Object({
  ...ChannelFields,
  id: Type.Integer(),
  status: Type.Optional(Type.Integer()),
  /** With a key: `append` adds its keys to the stored ones, `replace` (the default) replaces them. */
  key_mode: Type.Optional(Type.Union([Type.Literal('append'), Type.Literal('replace')])),
});
export type UpdateChannelBody = Static<typeof UpdateChannelBody>;

export const IdsBody = Type.Object({ ids: Type.Optional(Type.Array(Type.Integer(), { maxItems: 10000 })) });
export type IdsBody = Static<typeof IdsBody>;

export const BatchTagBody = Type.Object({
  ids: Type.Optional(Type.Array(Type.Integer(), { maxItems: 10000 })),
  tag: Type.Optional(Nullable(Type.String())),
});
export type BatchTagBody = Static<typeof BatchTagBody>;

export const TagBody = Type.Object({ tag: Type.Optional(Type.String()) });
export type TagBody = Static<typeof TagBody>;

/**
 * PUT /api/channel/tag: changes every channel carrying `tag`. Absent or empty fields are left
 * alone, except priority and weight, which must be valid when present.
 */
export const EditTagBody = Type.Object({
  tag: Type.Optional(Type.String()),
  new_tag: Type.Optional(Nullable(Type.String())),
  model_mapping: Type.Optional(Nullable(Type.String())),
  groups: Type.Optional(NameList),
  models: Type.Optional(NameList),
  priority: Type.Optional(Type.Unknown()),
  weight: Type.Optional(Type.Unknown()),
});
export type EditTagBody = Static<typeof EditTagBody>;

// ---- Answers ----

export const ModelEntry = Type.Object({ id: Type.String() });
export type ModelEntry = Static<typeof ModelEntry>;
export const ModelList = Type.Array(ModelEntry);

export const StringList = Type.Array(Type.String());
export const Count = Type.Integer();

/** POST /api/channel/fix: how many channels had their abilities rebuilt, and how many failed. */
export const FixResult = Type.Object({ success: Type.Integer(), fails: Type.Integer() });
export type FixResult = Static<typeof FixResult>;

/** GET /api/channel/tag/models?tag=: the tag whose channels' longest model list is wanted. */
export const TagModelsQuery = Type.Object({ tag: Type.Optional(Type.String({ maxLength: 255 })) });
