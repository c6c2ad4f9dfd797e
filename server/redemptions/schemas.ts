/**
 * Request and answer shapes of /api/redemption (admins) and POST /api/user/topup (redeeming). The
 * console imports the `Static` types.
 *
 * Codes are shown whole to admins: handing them out is what they are for. Numbers are checked by
 * the routes (integer, range) so that a bad value gets a clear message rather than a schema error.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Envelope, EnvelopeFields, Page } from '../http/schemas.js';

/** 1 unused, 2 disabled, 3 used. */
export const REDEMPTION_UNUSED = 1;
export const REDEMPTION_DISABLED = 2;
export const REDEMPTION_USED = 3;

/** Spec 9: default quota of a new code; at most 100 codes per batch; names of 1 to 20 characters. */
export const DEFAULT_REDEMPTION_QUOTA = 100000;
export const MAX_BATCH = 100;
export const MAX_NAME_LENGTH = 20;

export const RedemptionView = Type.Object({
  id: Type.Integer(),
  /** The admin who created it. */
  user_id: Type.Integer(),
  key: Type.String(),
  status: Type.Integer(),
  name: Type.String(),
  quota: Type.Number(),
  /** Empty: anyone may redeem it; otherwise only users of this group. */
  group: Type.String(),
  created_time: Type.Number(),
  redeemed_time: Type.Number(),
  /** 0 while unused. */
  used_user_id: Type.Integer(),
  /** Unix seconds after which the code can no longer be redeemed; 0 never expires. */
  expired_time: Type.Number(),
});
export type RedemptionView = Static<typeof RedemptionView>;

export const RedemptionPage = Page(RedemptionView);
export type RedemptionPage = Static<typeof RedemptionPage>;

export const RedemptionPageQuery = Type.Object({
  p: Type.Optional(Type.Integer()),
  page_size: Type.Optional(Type.Integer()),
});
export type RedemptionPageQuery = Static<typeof RedemptionPageQuery>;

/** `keyword`: an id, a whole code, or part of a name (wildcards taken literally). */
export const RedemptionSearchQuery = Type.Composite([
  RedemptionPageQuery,
  Type.Object({ keyword: Type.Optional(Type.String({ maxLength: 100 })) }),
]);
export type RedemptionSearchQuery = Static<typeof RedemptionSearchQuery>;

export const RedemptionIdParams = Type.Object({ id: Type.Integer() });
export type RedemptionIdParams = Static<typeof RedemptionIdParams>;

const EditableFields = {
  name: Type.Optional(Type.String({ maxLength: 1000 })),
  quota: Type.Optional(Type.Number()),
  group: Type.Optional(Type.String({ maxLength: 64 })),
  /** 0 (or absent on create): never expires; otherwise Unix seconds, not in the past. */
  expired_time: Type.Optional(Type.Number()),
};

/**
 * POST /api/redemption/: `count` codes (default 1) of `quota` (default 100000), expiring at
 * `expired_time` (default never). Answers the codes.
 */
export const CreateRedemptionBody = Type.Object({ ...EditableFields, count: Type.Optional(Type.Number()) });
export type CreateRedemptionBody = Static<typeof CreateRedemptionBody>;

/**
 * PUT /api/redemption/: `id` and the fields to change, only while the code is unused. With
 * `?status_only=true`: `{id, status}` (1 enable, 2 disable), refused once the code is used.
 */
export const UpdateRedemptionBody = Type.Object({ id: Type.Integer(), status: Type.Optional(Type.Integer()), ...EditableFields });
export type UpdateRedemptionBody = Static<typeof UpdateRedemptionBody>;

export const UpdateRedemptionQuery = Type.Object({ status_only: Type.Optional(Type.Boolean()) });
export type UpdateRedemptionQuery = Static<typeof UpdateRedemptionQuery>;

/** POST /api/user/topup: redeem a code; answers the quota credited. */
export const RedeemBody = Type.Object({ key: Type.Optional(Type.String({ maxLength: 200 })) });
export type RedeemBody = Static<typeof RedeemBody>;

export const RedemptionAnswer = Envelope(RedemptionView);
export const RedemptionPageAnswer = Envelope(RedemptionPage);
export const CreatedKeysAnswer = Envelope(Type.Array(Type.String()));
export const RedeemAnswer = Envelope(Type.Number());
/** DELETE /api/redemption/invalid: how many used, disabled or expired codes were deleted. */
export const CountAnswer = Envelope(Type.Integer());
export const EmptyAnswer = Type.Object(EnvelopeFields);
