/**
 * Who may do what to whom among users. Pure functions: they read two users and throw `fail` with
 * its refusal, so the rules stay in one place and the routes only apply the outcome.
 */
import { ROLE_ADMIN, ROLE_ROOT, ROLE_USER, USER_DISABLED, USER_ENABLED } from '../auth/roles.js';
import type { RefusalCode } from '../http/refusals.js';
import { fail } from '../http/errors.js';
import type { ManageAction } from './schemas.js';

export interface Actor {
  id: number;
  role: number;
}

export interface Target {
  id: number;
  role: number;
  status: number;
  deleted_at: number | null;
}

/** Whether the actor manages the target: users below their rank, and themselves (root: everyone). */
export function manages(actor: Actor, target: Pick<Target, 'id' | 'role'>): boolean {
  return target.id === actor.id || target.role < actor.role;
}

/** An admin reads users below their rank, and themselves. */
export function assertCanRead(actor: Actor, target: Target): void {
  if (!manages(actor, target)) throw fail('user.read_denied');
}

/** An admin edits users below their rank, and themselves; a deregistered user is frozen. */
export function assertCanEdit(actor: Actor, target: Target): void {
  if (!manages(actor, target)) throw fail('user.update_denied');
  if (target.deleted_at !== null) throw fail('user.deleted');
}

/** The role a new user may get from this admin. */
export function assertCanCreate(actor: Actor, role: number): void {
  if (![ROLE_USER, ROLE_ADMIN, ROLE_ROOT].includes(role)) throw fail('user.role_invalid');
  if (role >= actor.role) throw fail('user.role_too_high');
}

export interface ManageOutcome {
  role: number;
  status: number;
  /** The action deregisters the user. */
  deregister: boolean;
}

const ROOT_REFUSALS: Partial<Record<ManageAction, RefusalCode>> = {
  disable: 'user.root_disable',
  delete: 'user.root_delete',
  demote: 'user.root_demote',
  promote: 'user.already_root',
};

/** Whether the actor may change the target's balance: like every manage action, only below their rank. */
export function assertCanAdjustQuota(actor: Actor, target: Target): void {
  if (target.deleted_at !== null) throw fail('user.deleted');
  if (target.role >= actor.role) throw fail('user.update_denied');
}

/** The result of POST /api/user/manage (promote, demote, disable, enable, delete), or a refusal. */
export function planManage(actor: Actor, target: Target, action: Exclude<ManageAction, 'add_quota'>): ManageOutcome {
  if (target.deleted_at !== null) throw fail('user.deleted');
  const rootRefusal = target.role >= ROLE_ROOT ? ROOT_REFUSALS[action] : undefined;
  if (rootRefusal) throw fail(rootRefusal);
  if (target.role >= actor.role) throw fail(action === 'delete' ? 'user.delete_denied' : 'user.update_denied');
  const keep: ManageOutcome = { role: target.role, status: target.status, deregister: false };
  switch (action) {
    case 'promote':
      if (actor.role < ROLE_ROOT) throw fail('user.promote_needs_root');
      if (target.role >= ROLE_ADMIN) throw fail('user.already_admin');
      return { ...keep, role: ROLE_ADMIN };
    case 'demote':
      if (target.role < ROLE_ADMIN) throw fail('user.already_user');
      return { ...keep, role: ROLE_USER };
    case 'disable':
      return { ...keep, status: USER_DISABLED };
    case 'enable':
      return { ...keep, status: USER_ENABLED };
    case 'delete':
      return { ...keep, deregister: true };
  }
}
