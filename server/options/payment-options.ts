/**
 * The card payment options, under the family's names: Stripe (`Stripe*`), Creem (`Creem*`) and
 * the wallet's preset amounts and discounts by amount (`payment_setting.*`, shared by every
 * method). API keys and webhook secrets are write-only. StripePriceId is kept so the family's
 * console saves and reads it back: each checkout here prices its order itself, so the amount paid
 * is known before the webhook arrives and checked when it does.
 */
import type { ValueRule } from './values.js';

type OptionCheck = NonNullable<ValueRule['check']>;

interface Def extends ValueRule {
  default: string;
  secret?: true;
}

/** A fixed Creem product and the quota it buys. */
export interface CreemProduct {
  productId: string;
  name: string;
  price: number;
  currency: string;
  quota: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isProduct(v: unknown): v is CreemProduct {
  if (!isObject(v)) return false;
  const { productId, name, price, currency, quota } = v;
  return (
    typeof productId === 'string' &&
    /^[\w-]{1,128}$/.test(productId) &&
    typeof name === 'string' &&
    name.length <= 200 &&
    typeof price === 'number' &&
    Number.isFinite(price) &&
    price > 0 &&
    price < 1e9 &&
    typeof currency === 'string' &&
    /^[A-Za-z]{3}$/.test(currency) &&
    typeof quota === 'number' &&
    Number.isSafeInteger(quota) &&
    quota > 0
  );
}

/** The products of a CreemProducts value; null when it is not a list of products. */
export function parseCreemProducts(value: string): CreemProduct[] | null {
  let list: unknown;
  try {
    list = value.trim() === '' ? [] : JSON.parse(value);
  } catch {
    return null;
  }
  return Array.isArray(list) && list.length <= 100 && list.every(isProduct) ? list : null;
}

const creemProducts: OptionCheck = (v) => (parseCreemProducts(v) === null ? 'option.bad_creem_products' : null);

const amountOptions: OptionCheck = (v) => {
  let list: unknown;
  try {
    list = v.trim() === '' ? [] : JSON.parse(v);
  } catch {
    return 'option.bad_amount_options';
  }
  const ok = Array.isArray(list) && list.length <= 50 && list.every((n) => Number.isSafeInteger(n) && (n as number) > 0);
  return ok ? null : 'option.bad_amount_options';
};

const secret: Def = { type: 'string', default: '', secret: true };

export const PAYMENT_OPTIONS = {
  StripeApiSecret: secret,
  StripeWebhookSecret: secret,
  StripePriceId: { type: 'string', default: '' },
  /** Stripe currency units charged per dollar of quota, before group and amount discounts. */
  StripeUnitPrice: { type: 'float', default: '8', min: 0 },
  StripeMinTopUp: { type: 'int', default: '1', min: 1 },
  StripePromotionCodesEnabled: { type: 'bool', default: 'false' },
  /** ISO currency of Stripe checkouts (lower case, as Stripe writes it). */
  StripeCurrency: { type: 'string', default: 'usd', check: (v) => (/^[a-z]{3}$/.test(v) ? null : 'option.not_currency') },
  CreemApiKey: secret,
  CreemWebhookSecret: secret,
  CreemProducts: { type: 'json', default: '[]', check: creemProducts },
  CreemTestMode: { type: 'bool', default: 'false' },
  /** Preset amounts the wallet offers. */
  'payment_setting.amount_options': { type: 'json', default: '[]', check: amountOptions },
  /** Amount → price factor (0.9: 10 % off that amount), for every method priced by amount. */
  'payment_setting.amount_discount': { type: 'json', default: '{}', shape: 'number_map' },
} satisfies Record<string, Def>;
