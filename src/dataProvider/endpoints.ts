import { resources } from '../resources/registry';
import type { ResourceEndpoints } from './types';

export type { ResourceEndpoints };

/** Keyed by react-admin resource name, which is also the console route (`/user`, `/channel` …). */
export const ENDPOINTS: Readonly<Record<string, ResourceEndpoints>> = Object.fromEntries(
  resources.map((resource) => [resource.name, resource.endpoints]),
);

export function endpointsFor(resource: string): ResourceEndpoints {
  const endpoints = ENDPOINTS[resource];
  if (!endpoints) throw new Error(`No API endpoints declared for resource "${resource}"`);
  return endpoints;
}
