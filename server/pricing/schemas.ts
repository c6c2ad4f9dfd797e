/** GET /api/pricing: the model pricing table, imported by the console as types. */
import { Type, type Static } from '@sinclair/typebox';
import { UserGroups } from '../users/schemas.js';
import { EnvelopeFields } from '../http/schemas.js';

/** quota_type 0: paid per token (ratios); 1: paid per call (model_price in USD); 2: per second of video (model_price in USD). */
export const QUOTA_TYPE_TOKENS = 0;
export const QUOTA_TYPE_CALL = 1;
export const QUOTA_TYPE_SECOND = 2;

export const PricingItem = Type.Object({
  model_name: Type.String(),
  quota_type: Type.Integer(),
  /** 1 = 2 USD per 1M input tokens; 0 when the model has no ratio (per-call, or unset). */
  model_ratio: Type.Number(),
  completion_ratio: Type.Number(),
  /** USD per call, or per second of video; 0 for per-token models. */
  model_price: Type.Number(),
  /** The groups whose enabled channels serve the model, sorted. */
  enable_groups: Type.Array(Type.String()),
  /** From the model's catalogue row ("" without one). */
  description: Type.String(),
  /** An icon name or an http(s) address; "" for none. */
  icon: Type.String(),
  /** Comma-separated. */
  tags: Type.String(),
  /**
   * The vendor's id in `vendors`: an admin's vendor (positive), a built-in one guessed from the
   * model's name (negative), or 0 when unknown.
   */
  vendor_id: Type.Integer(),
});
export type PricingItem = Static<typeof PricingItem>;

/** A vendor named by a listed model. */
export const PricingVendor = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  icon: Type.String(),
});
export type PricingVendor = Static<typeof PricingVendor>;

/**
 * The envelope, the vendors the listed models name (sorted by name), and the ratios of the groups
 * the caller may use (anonymous: the default group).
 */
export const PricingAnswer = Type.Object({
  ...EnvelopeFields,
  data: Type.Array(PricingItem),
  vendors: Type.Array(PricingVendor),
  group_ratio: Type.Record(Type.String(), Type.Number()),
  usable_group: UserGroups,
});
export type PricingAnswer = Static<typeof PricingAnswer>;
