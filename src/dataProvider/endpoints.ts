import type { Identifier } from 'react-admin';
import { tokenEndpoints } from '../resources/tokens/endpoints';
import { channelEndpoints } from '../resources/channels/endpoints';
import { logEndpoints } from '../resources/logs/endpoints';
import { midjourneyEndpoints } from '../resources/midjourney/endpoints';
import { taskEndpoints } from '../resources/task/endpoints';
import { redemptionEndpoints } from '../resources/redemption/endpoints';

/**
 * How one resource maps onto the gateway's API. Everything not set here follows the common
 * pattern: GET `{base}?p&page_size` → `{items,total}`, GET `{base}{id}`, POST `{base}` to create,
 * PUT `{base}` with the id in the body to update, DELETE `{base}{id}/` to delete.
 */
export interface ResourceEndpoints {
  /** Collection path with its trailing slash, e.g. `/api/user/`. */
  base: string;
  /** Used for getList instead of `base` as soon as one of `params` has a value in the filter. */
  search?: { path: string; params: readonly string[] };
  /** Query name of the page size (`page_size` unless the endpoint says otherwise). */
  pageSizeParam?: string;
  /** Overrides the DELETE call of one record. */
  remove?: (id: Identifier) => { method: 'DELETE' | 'POST'; path: string; body?: unknown };
  /** POST `{id, action}` for row actions (promote, disable …); answers the changed fields. */
  manage?: string;
}

/** Keyed by react-admin resource name, which is also the console route (`/user`, `/channel` …). */
export const ENDPOINTS: Record<string, ResourceEndpoints> = {
  user: {
    base: '/api/user/',
    search: { path: '/api/user/search', params: ['keyword', 'group'] },
    manage: '/api/user/manage',
    // Deregistering a user is a manage action, not a DELETE.
    remove: (id) => ({ method: 'POST', path: '/api/user/manage', body: { id, action: 'delete' } }),
  },
  // Each resource's folder declares its own mapping.
  token: tokenEndpoints,
  channel: channelEndpoints,
  log: logEndpoints,
  midjourney: midjourneyEndpoints,
  task: taskEndpoints,
  redemption: redemptionEndpoints,
};

export function endpointsFor(resource: string): ResourceEndpoints {
  const endpoints = ENDPOINTS[resource];
  if (!endpoints) throw new Error(`No API endpoints declared for resource "${resource}"`);
  return endpoints;
}
