/**
 * react-admin's authProvider over the gateway's session: the user stored in localStorage `user`
 * (by the API client and `storeUser`) is the source of truth on the client.
 */
import { api, ApiError, storedUser, storeUser } from '../api/client';
import { needsSecondStep, SecondFactorRequired, securityMethods, type LoginAnswer } from '../api/securityMethods';
import { currentRole, type ConsoleAuthProvider } from './access';
import { canAccess } from './canAccess';

export { canAccess, isAdmin, isRoot, ROLE_ADMIN, ROLE_GUEST, ROLE_ROOT, ROLE_USER } from './canAccess';

export const LOGIN_PATH = '/login';

interface Credentials {
  username: string;
  password: string;
  turnstile?: string;
}

/** How a sign-in goes: the password, the second step's code, or a passkey. */
export type LoginParams = Credentials | { code: string } | { passkey: true };

function answerOf(params: LoginParams): Promise<LoginAnswer> {
  if ('code' in params) return securityMethods.loginWithCode(params.code);
  if ('passkey' in params) return securityMethods.loginWithPasskey();
  const query = params.turnstile ? `?turnstile=${encodeURIComponent(params.turnstile)}` : '';
  return api.post<LoginAnswer>(`/api/user/login${query}`, { username: params.username, password: params.password });
}

export const authProvider = {
  async login(params: LoginParams) {
    const answer = await answerOf(params);
    if (needsSecondStep(answer)) throw new SecondFactorRequired();
    storeUser(answer);
  },

  async logout() {
    const hadUser = storedUser() !== null;
    storeUser(null);
    // The session may already be gone (401): logging out then is not an error.
    if (hadUser) await api.get('/api/user/logout').catch(() => undefined);
    return LOGIN_PATH;
  },

  async checkAuth() {
    if (!storedUser()) throw new Error('ra.auth.auth_check_error');
  },

  async checkError(error: unknown) {
    const status = error instanceof ApiError ? error.status : (error as { status?: number } | null)?.status;
    if (status === 401) {
      storeUser(null);
      // The API client already shows the expired-session page; no second notification.
      throw { redirectTo: `${LOGIN_PATH}?expired=true`, message: false };
    }
  },

  async getPermissions() {
    return currentRole();
  },

  async getIdentity() {
    const user = storedUser();
    if (!user) throw new Error('ra.auth.auth_check_error');
    return { id: user.id, fullName: user.display_name || user.username };
  },

  async canAccess({ resource, action, record }) {
    return canAccess(currentRole(), { resource, action, record: record as Parameters<typeof canAccess>[1]['record'] });
  },

  canAccessAs: canAccess,
} satisfies ConsoleAuthProvider;
