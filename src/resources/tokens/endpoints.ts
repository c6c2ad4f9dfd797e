import type { ResourceEndpoints } from '../../dataProvider/endpoints';

/**
 * API tokens: `/api/token/`. The list takes its page size as `size` (spec 7); a name keyword or a
 * key in the filter switches to `/api/token/search`.
 */
export const tokenEndpoints: ResourceEndpoints = {
  base: '/api/token/',
  search: { path: '/api/token/search', params: ['keyword', 'token'] },
  pageSizeParam: 'size',
};
