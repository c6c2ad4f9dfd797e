import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { ROLE_ADMIN, ROLE_ROOT, ROLE_USER } from '../../authProvider/roles';
import { defineResource } from '../schema/definition';
import { logBase, storedRole } from './endpoints';
import type { LogRecord } from './types';

/** Usage logs (`/log`): admins read every user's rows, everyone else their own. */
export default defineResource<LogRecord, 'log'>({
  name: 'log',
  endpoints: {
    // Read at call time from the stored role, so the list follows whoever is logged in.
    get base() {
      return logBase(storedRole());
    },
  },
  access: { '*': ROLE_USER, admin_columns: ROLE_ADMIN, all_users: ROLE_ADMIN, cleanup: ROLE_ROOT },
  icon: ReceiptLongIcon,
  menu: [
    { section: 'console_section', order: 30 },
    { section: 'admin_section', order: 40, key: 'log_new', path: '/newLog', alias: true, action: 'all_users' },
  ],
  schema: () => import('./schema'),
});
