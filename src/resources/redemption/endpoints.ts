import type { ResourceEndpoints } from '../../dataProvider/endpoints';

/** Redemption codes (/redemption). */
export const redemptionEndpoints: ResourceEndpoints = {
  base: '/api/redemption/',
};
