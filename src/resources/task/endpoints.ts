import type { ResourceEndpoints } from '../../dataProvider/endpoints';

/** Task logs (/task). */
export const taskEndpoints: ResourceEndpoints = {
  base: '/api/task/',
};
