import VpnKeyIcon from '@mui/icons-material/VpnKey';
import { ROLE_ADMIN, ROLE_USER } from '../../authProvider/roles';
import { defineResource } from '../schema/definition';
import type { TokenRecord } from './types';

/**
 * API tokens (`/token`): everyone's own. The list takes its page size as `size`; a name keyword or
 * a key in the filter switches to `/api/token/search`.
 */
export default defineResource<TokenRecord, 'token'>({
  name: 'token',
  endpoints: {
    base: '/api/token/',
    search: { path: '/api/token/search', params: ['keyword', 'token'] },
    pageSizeParam: 'size',
  },
  access: { '*': ROLE_USER, all_users: ROLE_ADMIN },
  icon: VpnKeyIcon,
  menu: [
    { section: 'console_section', order: 20 },
    // The admin section's "new" entry is the admin view, so it needs admin rights.
    { section: 'admin_section', order: 50, key: 'token_new', path: '/newToken', alias: true, action: 'all_users' },
  ],
  schema: () => import('./schema'),
  recordRepresentation: 'name',
});
