import type { ResourceEndpoints } from '../../dataProvider/endpoints';

/** Usage logs: `/api/log/` (admin) or `/api/log/self/`. */
export const logEndpoints: ResourceEndpoints = { base: '/api/log/self/' };
