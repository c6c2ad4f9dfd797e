/**
 * Who may do what in the console: one pure function shared by the authProvider (react-admin's
 * access checks on resource pages), the sidebar and the row actions. The server stays the
 * authority; this only decides what the console offers.
 */
export const ROLE_GUEST = 0;
export const ROLE_USER = 1;
export const ROLE_ADMIN = 10;
export const ROLE_ROOT = 100;

export interface AccessRequest {
  resource: string;
  action: string;
  record?: { role?: number; id?: unknown; DeletedAt?: number | null } | undefined;
}

/** Minimum role per resource and action; `'*'` is the resource's default. */
const RULES: Record<string, Record<string, number>> = {
  // Pages anyone may see.
  home: { '*': ROLE_GUEST },
  pricing: { '*': ROLE_GUEST },
  about: { '*': ROLE_GUEST },
  // A logged-in person's own things.
  playground: { '*': ROLE_USER },
  chat: { '*': ROLE_USER },
  dashboard: { '*': ROLE_USER },
  token: { '*': ROLE_USER, all_users: ROLE_ADMIN },
  log: { '*': ROLE_USER, admin_columns: ROLE_ADMIN, all_users: ROLE_ADMIN, cleanup: ROLE_ROOT },
  midjourney: { '*': ROLE_USER, all_users: ROLE_ADMIN },
  task: { '*': ROLE_USER, all_users: ROLE_ADMIN },
  topup: { '*': ROLE_USER },
  personal: { '*': ROLE_USER },
  // Administration. The sidebar entries of channels and users use the stricter check (spec 2, 6).
  user: { '*': ROLE_ADMIN, menu: ROLE_ROOT, promote: ROLE_ROOT },
  channel: { '*': ROLE_ADMIN, menu: ROLE_ROOT, delete: ROLE_ROOT, edit: ROLE_ROOT, copy: ROLE_ROOT, tag_edit: ROLE_ROOT },
  channel_statistics: { '*': ROLE_ADMIN },
  redemption: { '*': ROLE_ADMIN },
  setting: { '*': ROLE_ROOT },
};

/** Actions on a user record that the server refuses for the same or a higher level. */
const USER_RECORD_ACTIONS = new Set(['edit', 'delete', 'manage', 'promote', 'demote', 'disable', 'enable']);

export function isAdmin(role: number): boolean {
  return role >= ROLE_ADMIN;
}

export function isRoot(role: number): boolean {
  return role >= ROLE_ROOT;
}

export function canAccess(role: number, { resource, action, record }: AccessRequest): boolean {
  const rules = RULES[resource];
  if (!rules) return role >= ROLE_ROOT;
  const needed = rules[action] ?? rules['*'] ?? ROLE_ROOT;
  if (role < needed) return false;
  if (resource === 'user' && record && USER_RECORD_ACTIONS.has(action)) {
    if (record.DeletedAt) return false;
    const target = record.role ?? ROLE_USER;
    // The super admin can never be demoted, disabled or deleted, not even by itself.
    if (target >= ROLE_ROOT && action !== 'edit') return false;
    if (action === 'demote' && target < ROLE_ADMIN) return false;
    if (action === 'promote' && target >= ROLE_ADMIN) return false;
    return isRoot(role) || target < role;
  }
  return true;
}
