import type { ResourceEndpoints } from '../../dataProvider/endpoints';

/** Channels: `/api/channel/`. */
export const channelEndpoints: ResourceEndpoints = { base: '/api/channel/' };
