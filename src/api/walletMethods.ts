/**
 * The wallet's calls, as custom dataProvider methods (spread into customMethods): redeeming a
 * code, the price of an online top-up, and the signed form that starts its payment.
 */
import type { PayForm } from '../../server/topup/schemas';
import { api } from './client';

/** Alipay (zfb) or WeChat Pay (wx). */
export type PaymentMethod = 'zfb' | 'wx';

export const walletMethods = {
  /** Redeems a code into the balance; answers the quota credited. */
  redeemCode(key: string): Promise<number> {
    return api.post<number>('/api/user/topup', { key });
  },
  /** What `amount` units cost this person (by their group), in yuan. */
  getTopUpPrice(amount: number): Promise<number> {
    return api.post<number>('/api/user/amount', { amount, top_up_code: '' });
  },
  /** The provider's URL and signed fields the browser posts to pay for `amount` units. */
  startPayment(amount: number, method: PaymentMethod): Promise<PayForm> {
    return api.post<PayForm>('/api/user/pay', { amount, top_up_code: '', payment_method: method });
  },
};
