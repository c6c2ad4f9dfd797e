/** Table types of what is sold and paid: payment provider events, subscription plans and users' subscriptions, spend caps. */
import type { Selectable } from 'kysely';
import type { D, Flag, Id } from './column-types.js';

/** Payment provider events taken (webhooks), once per provider and event id. */
export interface PaymentEventsTable {
  id: Id;
  provider: string;
  event_id: string;
  event_type: D<string>;
  trade_no: D<string>;
  outcome: D<string>;
  created_at: number;
}

export interface SubscriptionPlansTable {
  id: Id;
  title: string;
  subtitle: D<string>;
  price_amount: D<number>;
  currency: D<string>;
  duration_unit: D<string>;
  duration_value: D<number>;
  custom_seconds: D<number>;
  enabled: D<Flag>;
  sort_order: D<number>;
  stripe_price_id: D<string>;
  creem_product_id: D<string>;
  max_purchase_per_user: D<number>;
  total_amount: D<number>;
  upgrade_group: D<string>;
  quota_reset_period: D<string>;
  quota_reset_custom_seconds: D<number>;
  created_at: D<number>;
  updated_at: D<number>;
}

/** A user's subscription; `quota_left` is what its current period has left. */
export interface UserSubscriptionsTable {
  id: Id;
  user_id: number;
  plan_id: number;
  amount_total: D<number>;
  quota_left: D<number>;
  used_total: D<number>;
  start_time: number;
  end_time: number;
  status: D<string>;
  source: D<string>;
  quota_reset_period: D<string>;
  quota_reset_custom_seconds: D<number>;
  last_reset_time: D<number>;
  next_reset_time: D<number>;
  upgrade_group: D<string>;
  prev_user_group: D<string>;
  /** The paid order it came from; null when an admin bound it. */
  order_id: D<number | null>;
  created_at: D<number>;
  updated_at: D<number>;
}

export type SubscriptionPlan = Selectable<SubscriptionPlansTable>;
export type UserSubscription = Selectable<UserSubscriptionsTable>;

/** A token's or a user's spend limit per period. */
export interface SpendCapsTable {
  id: Id;
  /** 'token' or 'user'. */
  subject: string;
  subject_id: number;
  /** daily, weekly or monthly. */
  period: string;
  cap_limit: number;
  updated_at: D<number>;
}
export type SpendCap = Selectable<SpendCapsTable>;
