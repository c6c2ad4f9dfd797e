import type { PlanView } from '../../../server/subscriptions/schemas';

/** A plan as the admin list shows it (unwrapped from the family's `{plan}`). */
export type SubscriptionPlanRecord = PlanView;
