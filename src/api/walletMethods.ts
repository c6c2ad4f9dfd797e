/**
 * The wallet's calls, as custom dataProvider methods (spread into customMethods): redeeming a
 * code, the price of an online top-up, and the signed form that starts its payment.
 */
import type { PayForm } from '../../server/topup/schemas';
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
