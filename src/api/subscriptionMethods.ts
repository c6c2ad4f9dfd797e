/**
 * Subscription calls, as custom dataProvider methods (spread into customMethods): the caller's
 * subscriptions and billing preference; an admin's view, binding and invalidation of a user's
 * subscriptions; spend caps of tokens and users; the plans on sale and buying one.
 */
import type { PlanView, SelfView, SubscriptionSummary } from '../../server/subscriptions/schemas';
import type { PayForm } from '../../server/topup/schemas';
import { api } from './client';
import { checkoutLink, epayForm } from './walletMethods';

/** An EPay method as /api/user/topup/info names it. */
export type EpayType = 'alipay' | 'wxpay';

export type BillingPreference = 'subscription_first' | 'wallet_first' | 'subscription_only' | 'wallet_only';
export type CapPeriod = 'daily' | 'weekly' | 'monthly';
export interface SpendCapView {
  period: CapPeriod;
  limit: number;
}

export const subscriptionMethods = {
  /** The enabled plans, unwrapped from the family's `{plan}`. */
  async getPlansOnSale(): Promise<PlanView[]> {
    return (await api.get<Array<{ plan: PlanView }>>('/api/subscription/plans')).map((p) => p.plan);
  },
  /** The signed EPay form that buys plan `planId`. */
  buyPlanByEpay(planId: number, method: EpayType): Promise<PayForm> {
    return epayForm('/api/subscription/epay/pay', { plan_id: planId, payment_method: method });
  },
  /** The Stripe Checkout page that buys plan `planId`. */
  buyPlanByStripe(planId: number): Promise<string> {
    return checkoutLink('/api/subscription/stripe/pay', { plan_id: planId }, 'pay_link');
  },
  /** The Creem checkout page that buys plan `planId`. */
  buyPlanByCreem(planId: number): Promise<string> {
    return checkoutLink('/api/subscription/creem/pay', { plan_id: planId }, 'checkout_url');
  },
  getMySubscriptions(): Promise<SelfView> {
    return api.get<SelfView>('/api/subscription/self');
  },
  setBillingPreference(billing_preference: BillingPreference): Promise<unknown> {
    return api.put('/api/subscription/self/preference', { billing_preference });
  },
  async getAllPlans(): Promise<PlanView[]> {
    return (await api.get<Array<{ plan: PlanView }>>('/api/subscription/admin/plans')).map((p) => p.plan);
  },
  getUserSubscriptions(userId: number): Promise<SubscriptionSummary[]> {
    return api.get<SubscriptionSummary[]>(`/api/subscription/admin/users/${userId}/subscriptions`);
  },
  bindSubscription(userId: number, planId: number): Promise<unknown> {
    return api.post(`/api/subscription/admin/users/${userId}/subscriptions`, { plan_id: planId });
  },
  invalidateSubscription(id: number): Promise<unknown> {
    return api.post(`/api/subscription/admin/user_subscriptions/${id}/invalidate`, {});
  },
  getSpendCap(subject: 'token' | 'user', id: number): Promise<SpendCapView | null> {
    return api.get<SpendCapView | null>(`/api/spend_cap/${subject}/${id}`);
  },
  setSpendCap(subject: 'token' | 'user', id: number, cap: SpendCapView): Promise<SpendCapView | null> {
    return api.put<SpendCapView | null>(`/api/spend_cap/${subject}/${id}`, cap);
  },
};
