/**
 * The wallet's calls, as custom dataProvider methods (spread into customMethods): redeeming a
 * code, the price of an online top-up, and the signed form that starts its payment.
 */
import type { PayForm, TopUpInfo } from '../../server/topup/schemas';
import { api, refusalError, request } from './client';

/** Alipay (zfb) or WeChat Pay (wx). */
export type PaymentMethod = 'zfb' | 'wx';

type Answer<T> = Awaited<ReturnType<typeof request<T>>>;

/** A wallet refusal: its code in the reader's language, else the text the family puts in `data`. */
function walletRefusal(answer: Answer<unknown>): Error {
  return refusalError({ ...answer, message: typeof answer.data === 'string' ? answer.data : answer.message });
}

/** POSTs `body` to a card checkout route and answers the provider page it names in `data[field]`. */
export async function checkoutLink(path: string, body: object, field: 'pay_link' | 'checkout_url'): Promise<string> {
  const answer = await request<Record<string, string> | string>('POST', path, body);
  if (!answer.success || typeof answer.data !== 'object' || answer.data === null) throw walletRefusal(answer);
  return answer.data[field] ?? '';
}

/** POSTs `body` to an EPay route: the provider's URL and the signed fields the browser posts (the family's shape). */
export async function epayForm(path: string, body: object): Promise<PayForm> {
  const answer = (await request<Record<string, string>>('POST', path, body)) as Answer<Record<string, string>> & {
    url?: string;
    trade_no?: string;
  };
  if (!answer.success) throw walletRefusal(answer);
  return { url: answer.url ?? '', fields: answer.data ?? {}, trade_no: answer.trade_no ?? '' };
}

export const walletMethods = {
  /** Redeems a code into the balance; answers the quota credited. */
  redeemCode(key: string): Promise<number> {
    return api.post<number>('/api/user/topup', { key });
  },
  /** What `amount` units cost this person (by their group), in yuan. */
  async getTopUpPrice(amount: number): Promise<number> {
    const answer = await request<string>('POST', '/api/user/amount', { amount, top_up_code: '' });
    if (!answer.success) throw refusalError(answer);
    return Number(answer.data);
  },
  /** Which methods the wallet offers, the least amounts, Creem's products, presets. */
  getTopUpInfo(): Promise<TopUpInfo> {
    return api.get<TopUpInfo>('/api/user/topup/info');
  },
  /** What `amount` units cost by Stripe (its own price per dollar), in its currency. */
  async getStripePrice(amount: number): Promise<number> {
    const answer = await request<string>('POST', '/api/user/stripe/amount', { amount });
    if (!answer.success) throw refusalError(answer);
    return Number(answer.data);
  },
  /** The Stripe Checkout page that pays for `amount` units. */
  startStripePayment(amount: number): Promise<string> {
    return checkoutLink('/api/user/stripe/pay', { amount, payment_method: 'stripe' }, 'pay_link');
  },
  /** The Creem checkout page that buys `productId`. */
  startCreemPayment(productId: string): Promise<string> {
    return checkoutLink('/api/user/creem/pay', { product_id: productId, payment_method: 'creem' }, 'checkout_url');
  },
  /** An admin's completion of a pending order by hand (audited; credits it once). */
  async completeTopUpOrder(tradeNo: string): Promise<void> {
    await api.post<null>('/api/user/topup/complete', { trade_no: tradeNo });
  },
  /** The provider's URL and signed fields the browser posts to pay for `amount` units. */
  startPayment(amount: number, method: PaymentMethod): Promise<PayForm> {
    return epayForm('/api/user/pay', { amount, top_up_code: '', payment_method: method });
  },
};
