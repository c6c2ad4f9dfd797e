import { storedUser } from '../../api/client';
import { isAdmin } from '../../authProvider/canAccess';
import type { ResourceEndpoints } from '../../dataProvider/endpoints';

/** Admins read every user's tasks at `/api/task/`, everyone else their own at `/api/task/self/`. */
export function taskBase(role: number): string {
  return isAdmin(role) ? '/api/task/' : '/api/task/self/';
}

/** Task logs (/task); the base follows the stored role at call time, as the usage logs do. */
export const taskEndpoints: ResourceEndpoints = {
  get base() {
    return taskBase(storedUser()?.role ?? 0);
  },
};
