import RedeemIcon from '@mui/icons-material/Redeem';
import { ROLE_ADMIN } from '../../authProvider/roles';
import { defineResource } from '../schema/definition';
import type { RedemptionRecord } from './types';

/** Redemption codes (`/redemption`), admins only; a keyword switches to `/api/redemption/search`. */
export default defineResource<RedemptionRecord, 'redemption'>({
  name: 'redemption',
  endpoints: {
    base: '/api/redemption/',
    search: { path: '/api/redemption/search', params: ['keyword'] },
  },
  access: { '*': ROLE_ADMIN },
  icon: RedeemIcon,
  menu: [{ section: 'admin_section', order: 60 }],
  schema: () => import('./schema'),
  recordRepresentation: 'name',
});
