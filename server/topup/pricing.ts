/**
 * What an online top-up costs and gives. `amount` is what the person types: dollars when the site
 * shows currency (DisplayInCurrencyEnabled), otherwise quota points. They pay
 * dollars × Price (yuan per dollar; StripeUnitPrice for Stripe) × TopupGroupRatio of their group ×
 * the discount payment_setting.amount_discount sets for that amount, counted in whole cents, and
 * receive the matching quota. Both are fixed when the order is made.
 */
import { fail } from '../http/errors.js';
import type { OptionStore } from '../options/store.js';

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

/** The price factor payment_setting.amount_discount sets for this exact amount; 1 when none. */
export function amountDiscount(options: OptionStore, amount: number): number {
  const map = options.json<unknown>('payment_setting.amount_discount');
  const factor = typeof map === 'object' && map !== null ? (map as Record<string, unknown>)[String(amount)] : undefined;
  return typeof factor === 'number' && Number.isFinite(factor) && factor > 0 ? factor : 1;
}

/** What a method prices by: its least amount and its price per dollar of quota. */
export interface Tariff {
  min: number;
  unitPrice: number;
}

/** EPay's tariff: MinTopUp, Price (yuan per dollar). */
export const epayTariff = (options: OptionStore): Tariff => ({
  min: options.number('MinTopUp'),
  unitPrice: options.number('Price'),
});

export function quote(options: OptionStore, amount: number, group: string, tariff: Tariff = epayTariff(options)): Quote {
  if (!Number.isInteger(amount)) throw fail('topup.amount_not_integer');
  const min = tariff.min;
  if (amount < min) throw fail('topup.amount_below_minimum', { min });
  const perUnit = options.number('QuotaPerUnit') || 500_000;
  const inCurrency = options.bool('DisplayInCurrencyEnabled');
  const quota = inCurrency ? Math.round(amount * perUnit) : amount;
  if (quota > MAX_QUOTA) throw fail('topup.amount_too_large');
  const dollars = inCurrency ? amount : amount / perUnit;
  const factor = topUpGroupRatio(options, group) * amountDiscount(options, amount);
  const cents = Math.round(dollars * tariff.unitPrice * factor * 100);
  if (cents < 1) throw fail('topup.money_too_low');
  return { quota, cents };
}
