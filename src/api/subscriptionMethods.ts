/**
 * Subscription calls, as custom dataProvider methods (spread into customMethods): the caller's
 * subscriptions and billing preference; an admin's view, binding and invalidation of a user's
 * subscriptions; spend caps of tokens and users.
 */
import type { PlanView, SelfView, SubscriptionSummary } from '../../server/subscriptions/schemas';
import { api } from './client';

export type BillingPreference = 'subscription_first' | 'wallet_first' | 'subscription_only' | 'wallet_only';
export type CapPeriod = 'daily' | 'weekly' | 'monthly';
export interface SpendCapView {
  period: CapPeriod;
  limit: number;
}

export const subscriptionMethods = {
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
