import type { ResourceEndpoints } from '../../dataProvider/endpoints';

/** API tokens: `/api/token/`. */
export const tokenEndpoints: ResourceEndpoints = { base: '/api/token/' };
