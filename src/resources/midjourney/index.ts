import PaletteIcon from '@mui/icons-material/Palette';
import type { MjItem } from '../../../server/tasks/list-schemas';
import { isAdmin, ROLE_ADMIN, ROLE_USER } from '../../authProvider/roles';
import { storedRole } from '../log/endpoints';
import { defineResource } from '../schema/definition';

/** The drawing log (`/midjourney`): admins read every user's tasks at `/api/mj/`, others their own. */
export default defineResource<MjItem, 'midjourney'>({
  name: 'midjourney',
  endpoints: {
    get base() {
      return isAdmin(storedRole()) ? '/api/mj/' : '/api/mj/self/';
    },
  },
  access: { '*': ROLE_USER, all_users: ROLE_ADMIN },
  icon: PaletteIcon,
  menu: [{ section: 'console_section', order: 40, flag: 'enable_drawing' }],
  schema: () => import('./schema'),
});
