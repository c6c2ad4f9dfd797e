/**
 * How screens ask who may do what: through react-admin's authProvider (its AuthContext), never by
 * importing the policy. The policy reads every resource's and page's rules, so a screen importing
 * it would import itself back through the registries. The question is answered synchronously,
 * from the role each screen already holds: react-admin's useCanAccess is a query, and its pending
 * first render would disable row actions a person can already click.
 */
import { useAuthProvider, type AuthProvider } from 'react-admin';
import { storedUser } from '../api/client';
import type { AccessRecord } from '../resources/schema/definition';
import { ROLE_GUEST } from './roles';

export interface AccessRequest {
  resource: string;
  action: string;
  record?: AccessRecord;
}

/** Whether `role` may do the request; the authProvider's canAccess answers the same for the stored role. */
export type AccessPolicy = (role: number, request: AccessRequest) => boolean;

/** The console's authProvider: react-admin's, plus its policy for a given role. */
export interface ConsoleAuthProvider extends AuthProvider {
  canAccessAs: AccessPolicy;
}

// As react-admin does without an authProvider's canAccess: nothing is hidden.
const allowAll: AccessPolicy = () => true;

/** The policy of the authProvider in react-admin's context. */
export function useAccessPolicy(): AccessPolicy {
  const provider = useAuthProvider<ConsoleAuthProvider>();
  return provider?.canAccessAs ?? allowAll;
}

/** The role of the stored user, or guest (0) when nobody is logged in. */
export function currentRole(): number {
  return storedUser()?.role ?? ROLE_GUEST;
}
