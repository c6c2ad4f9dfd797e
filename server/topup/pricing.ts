/**
 * What an online top-up costs and gives. `amount` is what the person types: dollars when the site
 * shows currency (DisplayInCurrencyEnabled), otherwise quota points. They pay
 * dollars × Price (yuan per dollar) × TopupGroupRatio of their group, counted in whole cents, and
 * receive the matching quota. Both are fixed when the order is made.
 */
import { fail } from '../http/errors.js';
import type { OptionStore } from '../options/store.js';

export const PRICING_MESSAGES = {
  disabled: '管理员未开启在线充值！',
  notInteger: '充值数量必须是整数',
  belowMinimum: (min: number) => `充值数量不能小于 ${min}`,
  tooLarge: '充值数量过大',
  tooLow: '充值金额过低',
} as const;

/** Quota above this could not be added to a balance exactly. */
const MAX_QUOTA = 1e15;

export interface Quote {
  /** Quota credited once paid. */
  quota: number;
  /** Price in cents of a yuan. */
  cents: number;
}

/** Online top-up is on once the provider's address, merchant id and key are all set. */
export function onlineTopUpEnabled(options: OptionStore): boolean {
  return options.string('PayAddress') !== '' && options.string('EpayId') !== '' && options.string('EpayKey') !== '';
}

/** TopupGroupRatio of the group; 1 when the group has none or a nonsensical one. */
export function topUpGroupRatio(options: OptionStore, group: string): number {
  const map = options.json<unknown>('TopupGroupRatio');
  const ratio = typeof map === 'object' && map !== null ? (map as Record<string, unknown>)[group] : undefined;
  return typeof ratio === 'number' && Number.isFinite(ratio) && ratio > 0 ? ratio : 1;
}

export function quote(options: OptionStore, amount: number, group: string): Quote {
  if (!Number.isInteger(amount)) throw fail(PRICING_MESSAGES.notInteger);
  const min = options.number('MinTopUp');
  if (amount < min) throw fail(PRICING_MESSAGES.belowMinimum(min));
  const perUnit = options.number('QuotaPerUnit') || 500_000;
  const inCurrency = options.bool('DisplayInCurrencyEnabled');
  const quota = inCurrency ? Math.round(amount * perUnit) : amount;
  if (quota > MAX_QUOTA) throw fail(PRICING_MESSAGES.tooLarge);
  const dollars = inCurrency ? amount : amount / perUnit;
  const cents = Math.round(dollars * options.number('Price') * topUpGroupRatio(options, group) * 100);
  if (cents < 1) throw fail(PRICING_MESSAGES.tooLow);
  return { quota, cents };
}
