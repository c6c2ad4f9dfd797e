/** Rows as the family's answers carry them, and a plan's fields checked beyond their schema. */
import type { SubscriptionPlan, UserSubscription } from '../db/types.js';
import { fail } from '../http/errors.js';
import type { PlanFields as PlanRowFields } from './repository.js';
import type { PlanFields, PlanView, SubscriptionSummary, SubscriptionView } from './schemas.js';

export function planView(p: SubscriptionPlan): PlanView {
  return {
    ...p,
    price_amount: Number(p.price_amount),
    custom_seconds: Number(p.custom_seconds),
    enabled: p.enabled === 1,
    total_amount: Number(p.total_amount),
    quota_reset_custom_seconds: Number(p.quota_reset_custom_seconds),
    created_at: Number(p.created_at),
    updated_at: Number(p.updated_at),
  };
}

export function subscriptionView(s: UserSubscription): SubscriptionView {
  const total = Number(s.amount_total);
  return {
    id: s.id,
    user_id: s.user_id,
    plan_id: s.plan_id,
    amount_total: total,
    amount_used: total - Number(s.quota_left),
    used_total: Number(s.used_total),
    start_time: Number(s.start_time),
    end_time: Number(s.end_time),
    status: s.status,
    source: s.source,
    quota_reset_period: s.quota_reset_period,
    last_reset_time: Number(s.last_reset_time),
    next_reset_time: Number(s.next_reset_time) > 0 ? Number(s.next_reset_time) : null,
    upgrade_group: s.upgrade_group,
    created_at: Number(s.created_at),
    updated_at: Number(s.updated_at),
  };
}

export function summaries(rows: UserSubscription[], plans: SubscriptionPlan[]): SubscriptionSummary[] {
  const byId = new Map(plans.map((p) => [p.id, p]));
  return rows.map((s) => {
    const plan = byId.get(s.plan_id);
    return { subscription: subscriptionView(s), plan: plan ? planView(plan) : null };
  });
}

/** The row's fields for a plan the schema let through, or the refusal of what it cannot check. */
export function planRow(p: PlanFields): PlanRowFields {
  const invalid = (detail: string) => fail('subscription.plan_invalid', { detail });
  const title = p.title.trim();
  if (title === '') throw invalid('title');
  const value = p.duration_value ?? 1;
  const custom = p.custom_seconds ?? 0;
  if (p.duration_unit === 'custom' ? custom <= 0 : p.duration_unit !== 'permanent' && value <= 0) throw invalid('duration');
  const period = p.quota_reset_period ?? 'never';
  const resetSeconds = p.quota_reset_custom_seconds ?? 0;
  if (period === 'custom' && resetSeconds <= 0) throw invalid('quota_reset_custom_seconds');
  return {
    title,
    subtitle: p.subtitle ?? '',
    price_amount: p.price_amount,
    currency: (p.currency ?? '').trim() || 'USD',
    duration_unit: p.duration_unit,
    duration_value: value,
    custom_seconds: custom,
    enabled: p.enabled === false ? 0 : 1,
    sort_order: p.sort_order ?? 0,
    stripe_price_id: p.stripe_price_id ?? '',
    creem_product_id: p.creem_product_id ?? '',
    max_purchase_per_user: p.max_purchase_per_user ?? 0,
    total_amount: p.total_amount,
    upgrade_group: (p.upgrade_group ?? '').trim(),
    quota_reset_period: period,
    quota_reset_custom_seconds: resetSeconds,
  };
}
