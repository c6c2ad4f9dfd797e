import type { ResourceEndpoints } from '../../dataProvider/endpoints';

/** Drawing logs (/midjourney). */
export const midjourneyEndpoints: ResourceEndpoints = {
  base: '/api/midjourney/',
};
