import { storedUser } from '../../api/client';
import { isAdmin } from '../../authProvider/canAccess';
import type { ResourceEndpoints } from '../../dataProvider/endpoints';

/** Admins read every user's drawing tasks at `/api/mj/`, everyone else their own at `/api/mj/self/`. */
export function midjourneyBase(role: number): string {
  return isAdmin(role) ? '/api/mj/' : '/api/mj/self/';
}

/** Drawing logs (/midjourney); the base follows the stored role at call time, as the usage logs do. */
export const midjourneyEndpoints: ResourceEndpoints = {
  get base() {
    return midjourneyBase(storedUser()?.role ?? 0);
  },
};
