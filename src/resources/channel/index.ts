import HubIcon from '@mui/icons-material/Hub';
import { ROLE_ADMIN, ROLE_ROOT } from '../../authProvider/roles';
import { defineResource } from '../schema/definition';
import type { ChannelRow } from './types';

/**
 * Channels (`/channel`), for admins; deleting, editing, copying, tag edits and the sidebar entry
 * need the super admin. `/api/channel/` lists (with the `id_sort` and `tag_mode` switches); any
 * search field switches to `/api/channel/new/search`.
 */
export default defineResource<ChannelRow, 'channel'>({
  name: 'channel',
  endpoints: {
    base: '/api/channel/',
    search: { path: '/api/channel/new/search', params: ['keyword', 'group', 'model', 'status', 'key'] },
  },
  access: { '*': ROLE_ADMIN, menu: ROLE_ROOT, delete: ROLE_ROOT, edit: ROLE_ROOT, copy: ROLE_ROOT, tag_edit: ROLE_ROOT },
  icon: HubIcon,
  menu: [
    { section: 'admin_section', order: 10 },
    { section: 'admin_section', order: 20, key: 'channel_new', path: '/newChannel', alias: true },
  ],
  schema: () => import('./schema'),
  recordRepresentation: 'name',
});
