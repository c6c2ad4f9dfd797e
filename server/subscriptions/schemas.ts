/**
 * Request and answer shapes of /api/subscription/* in the family's field names. The console
 * imports the `Static` types. Plans are sent wrapped (`{plan: {...}}`), as the family's console does.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Envelope, Int53, Nullable } from '../http/schemas.js';
import { DURATION_UNITS, RESET_PERIODS } from './periods.js';
import { BILLING_PREFERENCES } from './repository.js';

const oneOf = <T extends readonly string[]>(values: T) => Type.Unsafe<T[number]>(Type.String({ enum: [...values] }));
const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

export const PlanFields = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 128 }),
  subtitle: Type.Optional(Type.String({ maxLength: 255 })),
  price_amount: Type.Number({ minimum: 0, maximum: 1e9 }),
  currency: Type.Optional(Type.String({ maxLength: 8 })),
  duration_unit: oneOf(DURATION_UNITS),
  duration_value: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
  custom_seconds: Type.Optional(Int53({ minimum: 0 })),
  enabled: Type.Optional(Type.Boolean()),
  sort_order: Type.Optional(Type.Integer({ minimum: -1000000, maximum: 1000000 })),
  stripe_price_id: Type.Optional(Type.String({ maxLength: 128 })),
  creem_product_id: Type.Optional(Type.String({ maxLength: 128 })),
  max_purchase_per_user: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000000 })),
  total_amount: Int53({ minimum: 0 }),
  upgrade_group: Type.Optional(Type.String({ maxLength: 64 })),
  quota_reset_period: Type.Optional(oneOf(RESET_PERIODS)),
  quota_reset_custom_seconds: Type.Optional(Int53({ minimum: 0 })),
});
export type PlanFields = Static<typeof PlanFields>;

export const PlanBody = Type.Object({ plan: PlanFields });
export type PlanBody = Static<typeof PlanBody>;

export const PlanView = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  subtitle: Type.String(),
  price_amount: Type.Number(),
  currency: Type.String(),
  duration_unit: Type.String(),
  duration_value: Type.Integer(),
  custom_seconds: Type.Number(),
  enabled: Type.Boolean(),
  sort_order: Type.Integer(),
  stripe_price_id: Type.String(),
  creem_product_id: Type.String(),
  max_purchase_per_user: Type.Integer(),
  total_amount: Type.Number(),
  upgrade_group: Type.String(),
  quota_reset_period: Type.String(),
  quota_reset_custom_seconds: Type.Number(),
  created_at: Type.Number(),
  updated_at: Type.Number(),
});
export type PlanView = Static<typeof PlanView>;

export const SubscriptionView = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  plan_id: Type.Integer(),
  /** The quota of each period. */
  amount_total: Type.Number(),
  /** Used in the current period. */
  amount_used: Type.Number(),
  /** Charged to it since it began, over all periods. */
  used_total: Type.Number(),
  start_time: Type.Number(),
  end_time: Type.Number(),
  status: Type.String(),
  source: Type.String(),
  quota_reset_period: Type.String(),
  last_reset_time: Type.Number(),
  /** When the current period ends; null when it never resets. */
  next_reset_time: Nullable(Type.Number()),
  upgrade_group: Type.String(),
  created_at: Type.Number(),
  updated_at: Type.Number(),
});
export type SubscriptionView = Static<typeof SubscriptionView>;

export const SubscriptionSummary = Type.Object({ subscription: SubscriptionView, plan: Nullable(PlanView) });
export type SubscriptionSummary = Static<typeof SubscriptionSummary>;

export const PlansAnswer = Envelope(Type.Array(Type.Object({ plan: PlanView })));
export const PlanAnswer = Envelope(PlanView);
export const Preference = oneOf(BILLING_PREFERENCES);
export const PreferenceBody = Type.Object({ billing_preference: Preference });
export const PreferenceAnswer = Envelope(Type.Object({ billing_preference: Type.String() }));

export const SelfView = Type.Object({
  billing_preference: Type.String(),
  subscriptions: Type.Array(SubscriptionSummary),
  all_subscriptions: Type.Array(SubscriptionSummary),
});
export type SelfView = Static<typeof SelfView>;
export const SelfAnswer = Envelope(SelfView);
export const SubscriptionsAnswer = Envelope(Type.Array(SubscriptionSummary));
export const EmptyAnswer = Envelope(Type.Null());

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });
export const EnabledBody = Type.Object({ enabled: Type.Boolean() });
export const BindBody = Type.Object({ user_id: Id, plan_id: Id });
export const PlanIdBody = Type.Object({ plan_id: Id });
export const PayBody = Type.Object({ plan_id: Id, payment_method: Type.String({ minLength: 1, maxLength: 16 }) });
export const PayAnswer = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  code: Type.Optional(Type.String()),
  params: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
  data: Type.Optional(Type.Union([Type.Record(Type.String(), Type.String()), Type.String()])),
  url: Type.Optional(Type.String()),
  trade_no: Type.Optional(Type.String()),
});
