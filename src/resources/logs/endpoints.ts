import { storedUser } from '../../api/client';
import { isAdmin } from '../../authProvider/canAccess';
import type { ResourceEndpoints } from '../../dataProvider/endpoints';

/** Admins read every user's rows at `/api/log/`, everyone else their own at `/api/log/self/`. */
export function logBase(role: number): string {
  return isAdmin(role) ? '/api/log/' : '/api/log/self/';
}

/** The stat call matching `logBase`: `/api/log/stat` or `/api/log/self/stat`. */
export function logStatPath(role: number): string {
  return `${logBase(role)}stat`;
}

/**
 * Usage logs. The shared endpoint table keys by resource only, so `base` is read at call time
 * from the logged-in person's stored role: the list follows whoever is logged in without the
 * dataProvider knowing about roles.
 */
export const logEndpoints: ResourceEndpoints = {
  get base() {
    return logBase(storedUser()?.role ?? 0);
  },
};
