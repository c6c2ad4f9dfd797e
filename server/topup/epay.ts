/**
 * The EPay (易支付) protocol, as far as the gateway speaks it: the signed form posted to the
 * provider's `submit.php`, and the check of its payment notification.
 *
 * Signature: the non-empty parameters other than `sign` and `sign_type`, sorted by name, joined as
 * `k=v&k=v`, with the merchant key appended, MD5 in lowercase hex. The notification (GET query or
 * POST form) carries pid, trade_no, out_trade_no, type, name, money, trade_status, sign, sign_type;
 * the merchant answers `success` once it has taken it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export const TRADE_SUCCESS = 'TRADE_SUCCESS';

/** The console's payment methods and the EPay `type` each stands for. */
export const PAY_TYPES = { zfb: 'alipay', wx: 'wxpay' } as const;
export type PaymentMethod = keyof typeof PAY_TYPES;

export function epaySign(params: Readonly<Record<string, string>>, key: string): string {
  const text = Object.keys(params)
    .filter((name) => name !== 'sign' && name !== 'sign_type' && params[name] !== '')
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
  return createHash('md5')
    .update(text + key, 'utf8')
    .digest('hex');
}

/** Whether `params.sign` is the signature of the rest under `key`. */
export function epayVerify(params: Readonly<Record<string, string>>, key: string): boolean {
  const given = (params.sign ?? '').toLowerCase();
  const expected = epaySign(params, key);
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

export interface PurchaseInput {
  /** Base address of the provider (PayAddress), without a trailing slash. */
  payAddress: string;
  pid: string;
  key: string;
  type: string;
  tradeNo: string;
  notifyUrl: string;
  returnUrl: string;
  name: string;
  /** Yuan with two decimals, e.g. `7.30`. */
  money: string;
}

export interface PurchaseForm {
  /** Where the browser posts the fields. */
  url: string;
  fields: Record<string, string>;
}

export function purchaseForm(input: PurchaseInput): PurchaseForm {
  const fields: Record<string, string> = {
    pid: input.pid,
    type: input.type,
    out_trade_no: input.tradeNo,
    notify_url: input.notifyUrl,
    return_url: input.returnUrl,
    name: input.name,
    money: input.money,
  };
  fields.sign = epaySign(fields, input.key);
  fields.sign_type = 'MD5';
  return { url: `${input.payAddress}/submit.php`, fields };
}

/** A decimal money string (`7.3`, `7.30`) in cents, or null when it is not one. */
export function moneyToCents(money: string): number | null {
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(money)) return null;
  const [whole = '0', fraction = ''] = money.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

export function centsToMoney(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
