/**
 * Enabling and disabling a row, as a custom dataProvider method (spread into customMethods): each
 * resource with a status switch takes `{id, status}` at its own address, and changes nothing else.
 */
import { api } from './client';

/** Where each resource takes `{id, status}` (a vendor's PUT keeps the fields it is not given). */
const STATUS_PATHS = {
  token: '/api/token/?status_only=true',
  redemption: '/api/redemption/?status_only=true',
  model: '/api/models/?status_only=true',
  vendor: '/api/vendors/',
} satisfies Record<string, string>;

export type StatusResource = keyof typeof STATUS_PATHS;

export const statusMethods = {
  async setRowStatus(resource: StatusResource, id: number | string, status: number): Promise<void> {
    await api.put(STATUS_PATHS[resource], { id, status });
  },
};
