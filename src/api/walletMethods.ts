/**
 * The wallet's calls, as custom dataProvider methods (spread into customMethods): redeeming a
 * code, the price of an online top-up, and the signed form that starts its payment.
 */
import type { PayForm, TopUpInfo } from '../../server/topup/schemas';
import { api, refusalError, request } from './client';

/** Alipay (zfb) or WeChat Pay (wx). */
export type PaymentMethod = 'zfb' | 'wx';

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
  async startStripePayment(amount: number): Promise<string> {
    const answer = await request<{ pay_link: string } | string>('POST', '/api/user/stripe/pay', {
      amount,
      payment_method: 'stripe',
    });
    if (!answer.success || typeof answer.data !== 'object' || answer.data === null) throw refusalError(answer);
    return answer.data.pay_link;
  },
  /** The Creem checkout page that buys `productId`. */
  async startCreemPayment(productId: string): Promise<string> {
    const answer = await request<{ checkout_url: string } | string>('POST', '/api/user/creem/pay', {
      product_id: productId,
      payment_method: 'creem',
    });
    if (!answer.success || typeof answer.data !== 'object' || answer.data === null) throw refusalError(answer);
    return answer.data.checkout_url;
  },
  /** An admin's completion of a pending order by hand (audited; credits it once). */
  async completeTopUpOrder(tradeNo: string): Promise<void> {
    await api.post<null>('/api/user/topup/complete', { trade_no: tradeNo });
  },
  /** The provider's URL and signed fields the browser posts to pay for `amount` units (the family's shape). */
  async startPayment(amount: number, method: PaymentMethod): Promise<PayForm> {
    const body = { amount, top_up_code: '', payment_method: method };
    const answer = (await request<Record<string, string>>('POST', '/api/user/pay', body)) as Awaited<
      ReturnType<typeof request<Record<string, string>>>
    > & { url?: string; trade_no?: string };
    if (!answer.success) throw refusalError(answer);
    return { url: answer.url ?? '', fields: answer.data ?? {}, trade_no: answer.trade_no ?? '' };
  },
};
