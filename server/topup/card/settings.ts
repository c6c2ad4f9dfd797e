/** When each card method is on, and what Stripe prices by. */
import type { OptionStore } from '../../options/store.js';
import { parseCreemProducts, type CreemProduct } from '../../options/payment-options.js';
import type { Tariff } from '../pricing.js';

/** Stripe takes payments once its API key and webhook secret are both set (no webhook, no credit). */
export function stripeEnabled(options: OptionStore): boolean {
  return options.string('StripeApiSecret') !== '' && options.string('StripeWebhookSecret') !== '';
}

export function creemProducts(options: OptionStore): CreemProduct[] {
  return parseCreemProducts(options.string('CreemProducts')) ?? [];
}

/** Creem takes payments once its API key, webhook secret and at least one product are set. */
export function creemEnabled(options: OptionStore): boolean {
  return options.string('CreemApiKey') !== '' && options.string('CreemWebhookSecret') !== '' && creemProducts(options).length > 0;
}

export const stripeTariff = (options: OptionStore): Tariff => ({
  min: options.number('StripeMinTopUp'),
  unitPrice: options.number('StripeUnitPrice'),
});
