/**
 * Redemption codes besides their list and rows, as custom dataProvider methods (spread into
 * customMethods): a batch made in one call, and the sweep of invalid codes.
 */
import type { CreateRedemptionBody } from '../../server/redemptions/schemas';
import { api } from './client';

export const redemptionMethods = {
  /** Makes the batch; answers the codes made. */
  createRedemptions(body: CreateRedemptionBody): Promise<string[]> {
    return api.post<string[]>('/api/redemption/', body);
  },
  /** Deletes every used, disabled and expired code; answers how many went. */
  clearInvalidRedemptions(): Promise<number> {
    return api.delete<number>('/api/redemption/invalid');
  },
};
