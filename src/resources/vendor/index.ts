import BusinessIcon from '@mui/icons-material/Business';
import { ROLE_ADMIN } from '../../authProvider/roles';
import { defineResource } from '../schema/definition';
import type { VendorRecord } from './types';

/** Vendors (`/vendor`), admins only: who makes a model, named on the pricing page. */
export default defineResource<VendorRecord, 'vendor'>({
  name: 'vendor',
  endpoints: {
    base: '/api/vendors/',
    search: { path: '/api/vendors/search', params: ['keyword'] },
  },
  access: { '*': ROLE_ADMIN },
  icon: BusinessIcon,
  menu: [{ section: 'admin_section', order: 57 }],
  schema: () => import('./schema'),
  recordRepresentation: 'name',
});
