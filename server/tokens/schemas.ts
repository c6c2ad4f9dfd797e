/**
 * Request and answer shapes of /api/token. The console imports the `Static` types; the routes use
 * the schemas to validate input and to serialize answers.
 *
 * Keys: `key` in every list and detail answer is the stored key masked as first 4 + `**********` +
 * last 4. Whole keys are only in the answers of the reveal calls (POST /api/token/{id}/key,
 * /api/token/keys, /api/token/batch/keys). Every answer gives the key as stored, WITHOUT the `sk-`
 * prefix, as the family does: its consoles (and ours) put `sk-` in front to show and copy it, and
 * the relay accepts the key with or without it.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Envelope, EnvelopeFields, Page } from '../http/schemas.js';

export const TokenView = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  name: Type.String(),
  /** Masked, without `sk-` (see above). */
  key: Type.String(),
  /** 1 enabled, 2 disabled, 3 expired, 4 exhausted. */
  status: Type.Integer(),
  created_time: Type.Number(),
  accessed_time: Type.Number(),
  /** Unix seconds; -1 never expires. */
  expired_time: Type.Number(),
  remain_quota: Type.Number(),
  used_quota: Type.Number(),
  unlimited_quota: Type.Boolean(),
  model_limits_enabled: Type.Boolean(),
  /** Model names separated by commas. */
  model_limits: Type.String(),
  /** IPv4/IPv6 addresses or CIDRs, one a line; empty allows every address. */
  allow_ips: Type.String(),
  /** Empty: the owner's group. */
  group: Type.String(),
  /** Tokens (prompt + completion, as billed) per sliding minute, counted across every process; 0 = no limit. */
  tpm_limit: Type.Integer(),
  /** Relayed calls in flight, counted across every process; 0 = no limit. */
  max_concurrency: Type.Integer(),
  /** Relayed requests per minute; 0 = no limit. */
  rpm_limit: Type.Integer(),
  /** Relayed requests per day (UTC); 0 = no limit. */
  rpd_limit: Type.Integer(),
  /** The bodies of its calls are kept, when the administrator allows body logs. */
  log_bodies: Type.Boolean(),
});
export type TokenView = Static<typeof TokenView>;

export const TokenPage = Page(TokenView);
export type TokenPage = Static<typeof TokenPage>;

export const RevealedKey = Type.Object({
  /** The whole key, without `sk-`. */
  key: Type.String(),
});
export type RevealedKey = Static<typeof RevealedKey>;

/** POST /api/token/keys: several whole keys in one (rate-limited) call, for "copy selected". */
export const RevealKeysBody = Type.Object({ ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 100 }) });
export type RevealKeysBody = Static<typeof RevealKeysBody>;
export const RevealedKeys = Type.Array(Type.Object({ id: Type.Integer(), key: Type.String() }));
export type RevealedKeys = Static<typeof RevealedKeys>;

/** POST /api/token/batch (delete) and /api/token/batch/keys (reveal): the family's `{ids}`. */
export const TokenIdsBody = RevealKeysBody;
export type TokenIdsBody = Static<typeof TokenIdsBody>;
/** POST /api/token/batch/keys: `keys` maps each id (a JSON object key) to its whole key. */
export const KeysById = Type.Object({ keys: Type.Record(Type.String(), Type.String()) });
export type KeysById = Static<typeof KeysById>;

/** `size` is what the console sends; `page_size` is accepted as everywhere else. */
export const TokenPageQuery = Type.Object({
  p: Type.Optional(Type.Integer()),
  size: Type.Optional(Type.Integer()),
  page_size: Type.Optional(Type.Integer()),
});
export type TokenPageQuery = Static<typeof TokenPageQuery>;

/** `keyword` matches names as a substring (wildcards taken literally); `token` is a whole key, `sk-` optional. */
export const TokenSearchQuery = Type.Composite([
  TokenPageQuery,
  Type.Object({
    keyword: Type.Optional(Type.String({ maxLength: 100 })),
    token: Type.Optional(Type.String({ maxLength: 100 })),
  }),
]);
export type TokenSearchQuery = Static<typeof TokenSearchQuery>;

export const TokenIdParams = Type.Object({ id: Type.Integer() });
export type TokenIdParams = Static<typeof TokenIdParams>;

/**
 * The editable fields. Numbers are checked by the server (integer, range) so that a bad value gets
 * a clear message rather than a schema error; the length caps here only stop absurd payloads.
 */
const TokenFields = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 1000 })),
  remain_quota: Type.Optional(Type.Number()),
  expired_time: Type.Optional(Type.Number()),
  unlimited_quota: Type.Optional(Type.Boolean()),
  model_limits_enabled: Type.Optional(Type.Boolean()),
  model_limits: Type.Optional(Type.String({ maxLength: 65535 })),
  allow_ips: Type.Optional(Type.String({ maxLength: 65535 })),
  group: Type.Optional(Type.String({ maxLength: 64 })),
  tpm_limit: Type.Optional(Type.Number()),
  max_concurrency: Type.Optional(Type.Number()),
  rpm_limit: Type.Optional(Type.Number()),
  rpd_limit: Type.Optional(Type.Number()),
  log_bodies: Type.Optional(Type.Boolean()),
});

/** POST /api/token/. Absent fields: quota 0, never expires, no limits, the owner's group. */
export const CreateTokenBody = TokenFields;
export type CreateTokenBody = Static<typeof CreateTokenBody>;

/**
 * PUT /api/token/: `id` and the fields to change (absent ones keep their value; `status` is
 * ignored). With `?status_only=true`: `{id, status}` and only the status changes.
 */
export const UpdateTokenBody = Type.Composite([
  Type.Object({ id: Type.Integer(), status: Type.Optional(Type.Integer()) }),
  TokenFields,
]);
export type UpdateTokenBody = Static<typeof UpdateTokenBody>;

export const UpdateTokenQuery = Type.Object({ status_only: Type.Optional(Type.Boolean()) });
export type UpdateTokenQuery = Static<typeof UpdateTokenQuery>;

export const TokenAnswer = Envelope(TokenView);
export const TokenPageAnswer = Envelope(TokenPage);
export const RevealedKeyAnswer = Envelope(RevealedKey);
export const RevealedKeysAnswer = Envelope(RevealedKeys);
export const KeysByIdAnswer = Envelope(KeysById);
export const CountAnswer = Envelope(Type.Integer());
export const EmptyAnswer = Type.Object(EnvelopeFields);
