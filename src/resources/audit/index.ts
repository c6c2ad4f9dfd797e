import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import type { AuditListItem } from '../../../server/audit/schemas';
import { ROLE_ROOT } from '../../authProvider/roles';
import { defineResource } from '../schema/definition';

/** The admin audit log (`/audit`): every admin's and root's changes, read-only, for root only. */
export default defineResource<AuditListItem, 'audit'>({
  name: 'audit',
  endpoints: { base: '/api/audit/' },
  access: { '*': ROLE_ROOT },
  icon: ManageSearchIcon,
  menu: [{ section: 'admin_section', order: 90 }],
  schema: () => import('./schema'),
});
