import { storedUser } from '../../api/client';
import { isAdmin } from '../../authProvider/roles';

/** Admins read every user's rows at `/api/log/`, everyone else their own at `/api/log/self/`. */
export function logBase(role: number): string {
  return isAdmin(role) ? '/api/log/' : '/api/log/self/';
}

/** The stored person's role: the endpoints follow whoever is logged in, read at call time. */
export function storedRole(): number {
  return storedUser()?.role ?? 0;
}
