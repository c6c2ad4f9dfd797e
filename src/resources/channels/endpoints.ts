import type { ResourceEndpoints } from '../../dataProvider/endpoints';

/**
 * Channels: `/api/channel/` lists (with `id_sort` and `tag_mode` flags from the list's permanent
 * filter); any search field switches to `/api/channel/new/search`. DELETE `/api/channel/{id}/` is
 * the common pattern.
 */
export const channelEndpoints: ResourceEndpoints = {
  base: '/api/channel/',
  search: { path: '/api/channel/new/search', params: ['keyword', 'group', 'model', 'status', 'key'] },
};
