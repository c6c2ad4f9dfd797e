import type { ResourceEndpoints } from '../../dataProvider/endpoints';

/** Redemption codes (/redemption): `/api/redemption/`; a keyword switches to `/api/redemption/search`. */
export const redemptionEndpoints: ResourceEndpoints = {
  base: '/api/redemption/',
  search: { path: '/api/redemption/search', params: ['keyword'] },
};
