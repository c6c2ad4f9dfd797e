import PeopleIcon from '@mui/icons-material/People';
import { ROLE_ADMIN, ROLE_ROOT, ROLE_USER } from '../../authProvider/roles';
import { defineResource } from '../schema/definition';
import type { UserRecord } from './types';

/** Actions on a user record that the server refuses for the same or a higher level. */
const RECORD_ACTIONS = new Set(['edit', 'delete', 'manage', 'promote', 'demote', 'disable', 'enable']);

/** Users (`/user`): admins manage them; the sidebar entry and promoting need the super admin. */
export default defineResource<UserRecord, 'user'>({
  name: 'user',
  endpoints: {
    base: '/api/user/',
    search: { path: '/api/user/search', params: ['keyword', 'group'] },
    manage: '/api/user/manage',
    // Deregistering a user is a manage action, not a DELETE.
    remove: (id) => ({ method: 'POST', path: '/api/user/manage', body: { id, action: 'delete' } }),
  },
  access: { '*': ROLE_ADMIN, menu: ROLE_ROOT, promote: ROLE_ROOT },
  recordAccess: (role, action, record) => {
    if (!RECORD_ACTIONS.has(action)) return undefined;
    if (record.DeletedAt) return false;
    const target = record.role ?? ROLE_USER;
    // The super admin can never be demoted, disabled or deleted, not even by itself.
    if (target >= ROLE_ROOT && action !== 'edit') return false;
    if (action === 'demote' && target < ROLE_ADMIN) return false;
    if (action === 'promote' && target >= ROLE_ADMIN) return false;
    return role >= ROLE_ROOT || target < role;
  },
  icon: PeopleIcon,
  menu: [
    { section: 'admin_section', order: 70 },
    { section: 'admin_section', order: 80, key: 'user_new', path: '/newUser', alias: true },
  ],
  schema: () => import('./schema'),
  recordRepresentation: 'username',
});
