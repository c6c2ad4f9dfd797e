/**
 * The path a request was routed by. The router decodes percent-escapes, so `/%61pi/status` is served
 * by `/api/status`; a check on the raw URL's prefix is one a client steps around by escaping a
 * letter. Hooks that decide by path (the console API's limit, the error format, the CSP) ask here.
 */
import type { FastifyRequest } from 'fastify';

/**
 * What the first hook of every request (server/ops/request-hooks.ts) read of its route, kept on the
 * request: Fastify builds the whole `routeOptions` object anew on every read.
 */
export interface RoutedFacts {
  path: string;
  bodyLimit: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    routed: RoutedFacts | null;
  }
}

/** The matched route's pattern (`/api/user/:id`); for a path no route matched, the path decoded. */
export function routedPath(request: FastifyRequest): string {
  return request.routed?.path ?? pathOf(request, request.routeOptions.url);
}

/**
 * routedPath, given the route's pattern already read: Fastify builds the whole `routeOptions`
 * object anew on every read, which a hook of every request reads once.
 */
export function pathOf(request: FastifyRequest, route: string | undefined): string {
  if (route) return route;
  const path = request.url.split('?', 1)[0] ?? '';
  try {
    return decodeURIComponent(path);
  } catch {
    // A malformed escape: the router does not decode it either.
    return path;
  }
}
