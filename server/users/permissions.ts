/**
 * Who may do what to whom among users. Pure functions: they read two users and throw `fail` with
 * the spec's message, so the rules stay in one place and the routes only apply the outcome.
 */
import { ROLE_ADMIN, ROLE_ROOT, ROLE_USER, USER_DISABLED, USER_ENABLED } from '../auth/roles.js';
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

export const MSG_READ_DENIED = '无权获取同级或更高等级用户的信息';
export const MSG_UPDATE_DENIED = '无权更新同权限等级或更高权限等级的用户信息';
export const MSG_DELETE_DENIED = '无权删除同权限等级或更高权限等级的用户';
export const MSG_DELETED = '该用户已注销';

/** An admin reads users below their rank, and themselves. */
export function assertCanRead(actor: Actor, target: Target): void {
  if (target.id !== actor.id && target.role >= actor.role) throw fail(MSG_READ_DENIED);
}

/** An admin edits users below their rank, and themselves; a deregistered user is frozen. */
export function assertCanEdit(actor: Actor, target: Target): void {
  if (target.id !== actor.id && target.role >= actor.role) throw fail(MSG_UPDATE_DENIED);
  if (target.deleted_at !== null) throw fail(MSG_DELETED);
}

/** The role a new user may get from this admin. */
export function assertCanCreate(actor: Actor, role: number): void {
  if (![ROLE_USER, ROLE_ADMIN, ROLE_ROOT].includes(role)) throw fail('无效的用户角色');
  if (role >= actor.role) throw fail('无法创建权限大于等于自己的用户');
}

export interface ManageOutcome {
  role: number;
  status: number;
  /** The action deregisters the user. */
  deregister: boolean;
}

const ROOT_REFUSALS: Partial<Record<ManageAction, string>> = {
  disable: '无法禁用超级管理员用户',
  delete: '无法删除超级管理员用户',
  demote: '无法降级超级管理员用户',
  promote: '该用户已经是超级管理员',
};

/** The result of POST /api/user/manage, or a refusal (spec section 6). */
export function planManage(actor: Actor, target: Target, action: ManageAction): ManageOutcome {
  if (target.deleted_at !== null) throw fail(MSG_DELETED);
  const rootRefusal = target.role >= ROLE_ROOT ? ROOT_REFUSALS[action] : undefined;
  if (rootRefusal) throw fail(rootRefusal);
  if (target.role >= actor.role) throw fail(action === 'delete' ? MSG_DELETE_DENIED : MSG_UPDATE_DENIED);
  const keep: ManageOutcome = { role: target.role, status: target.status, deregister: false };
  switch (action) {
    case 'promote':
      if (actor.role < ROLE_ROOT) throw fail('普通管理员用户无法提升其他用户为管理员');
      if (target.role >= ROLE_ADMIN) throw fail('该用户已经是管理员');
      return { ...keep, role: ROLE_ADMIN };
    case 'demote':
      if (target.role < ROLE_ADMIN) throw fail('该用户已经是普通用户');
      return { ...keep, role: ROLE_USER };
    case 'disable':
      return { ...keep, status: USER_DISABLED };
    case 'enable':
      return { ...keep, status: USER_ENABLED };
    case 'delete':
      return { ...keep, deregister: true };
  }
}
